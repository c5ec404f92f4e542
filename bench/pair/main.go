//go:build unix

// Command pair times commands against each other in paired, interleaved
// rounds: each round runs every command once (the order reversed every
// other round), so a slow spell of a shared machine hits them alike. It
// prints each command's median wall time, the median of its children's
// CPU time (user + system, less sensitive to other load than wall time)
// and peak RSS, and the median of each command's per-round ratio to the
// first (the floor).
//
//	go run ./bench/pair -C DIR -n 31 floor='bench-floor -j 2 chain.spec' new='chainrun run chain.yaml -q'
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// series is one command and what its rounds measured.
type series struct {
	name           string
	argv           []string
	wall, cpu, rss []float64 // ms, ms, MiB
}

func main() {
	rounds := flag.Int("n", 15, "timed rounds (after one untimed)")
	dir := flag.String("C", ".", "directory the commands run in")
	flag.Parse()
	var all []*series
	for _, a := range flag.Args() {
		name, cmd, ok := strings.Cut(a, "=")
		if !ok || strings.TrimSpace(cmd) == "" {
			fmt.Fprintf(os.Stderr, "pair: %q is not NAME=COMMAND\n", a)
			os.Exit(2)
		}
		all = append(all, &series{name: name, argv: strings.Fields(cmd)})
	}
	if len(all) == 0 {
		fmt.Fprintln(os.Stderr, "pair: no commands")
		os.Exit(2)
	}
	for _, s := range all {
		s.run(*dir, false) // warm the page cache
	}
	for i := range *rounds {
		for j := range all {
			if i%2 == 1 {
				j = len(all) - 1 - j
			}
			all[j].run(*dir, true)
		}
	}
	for _, s := range all {
		fmt.Printf("%-10s wall %8.2f ms (min %8.2f)  cpu %8.2f ms  rss %6.1f MiB\n", s.name, median(s.wall), slices.Min(s.wall), median(s.cpu), median(s.rss))
	}
	for _, s := range all[1:] {
		ratios := make([]float64, len(s.wall))
		for i := range s.wall {
			ratios[i] = s.wall[i] / all[0].wall[i]
		}
		fmt.Printf("%s / %s: %.3fx (median of the rounds' ratios)\n", s.name, all[0].name, median(ratios))
	}
}

// run runs the command once, keeping what it measured when keep is set;
// a failure stops everything.
func (s *series) run(dir string, keep bool) {
	c := exec.Command(s.argv[0], s.argv[1:]...)
	c.Dir = dir
	start := time.Now()
	out, err := c.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pair: %s: %v\n%s", s.name, err, out)
		os.Exit(1)
	}
	if keep {
		ru := c.ProcessState.SysUsage().(*syscall.Rusage)
		s.wall = append(s.wall, float64(wall.Microseconds())/1000)
		s.cpu = append(s.cpu, float64((c.ProcessState.UserTime()+c.ProcessState.SystemTime()).Microseconds())/1000)
		s.rss = append(s.rss, float64(ru.Maxrss)/1024)
	}
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
