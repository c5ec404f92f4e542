// Command floor runs a bench spec (lines of "id deps argv...", deps
// comma-separated or "-") with plain os/exec: each node starts as soon as
// its deps are done, at most -j at once. It does nothing else, so its time
// is the floor any Go runner of the same graph can reach.
package main

import (
	"bufio"
	"flag"
	"log"
	"os"
	"os/exec"
	"strings"
	"sync"
)

func main() {
	par := flag.Int("j", 2, "most commands running at once")
	flag.Parse()
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	done := map[string]chan struct{}{} // closed when the node has finished
	var lines [][]string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		fields := strings.Fields(sc.Text())
		done[fields[0]] = make(chan struct{})
		lines = append(lines, fields)
	}
	slots := make(chan struct{}, *par)
	var wg sync.WaitGroup
	for _, fields := range lines {
		wg.Go(func() {
			defer close(done[fields[0]])
			for _, d := range strings.Split(fields[1], ",") {
				if d != "-" {
					<-done[d] // wait for deps before taking a slot
				}
			}
			slots <- struct{}{}
			defer func() { <-slots }()
			if err := exec.Command(fields[2], fields[3:]...).Run(); err != nil {
				log.Fatalf("%s: %v", fields[0], err)
			}
		})
	}
	wg.Wait()
}
