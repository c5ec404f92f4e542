//go:build unix

// Package savedruns times the commands that look saved runs up (runs -n
// 10, runs show last, resume last, a partial id, completion, the first
// line of a whole listing) and a run that prunes with retention, against
// state directories of 10, 4,000 and 50,000 saved runs, as a user types
// them: each is the chainrun binary, started once per iteration. Only `go test -bench` runs it (the
// 50,000 runs take a minute to make); docs/performance.md keeps the
// figures.
//
// Each round times the command at N runs and at 10 in turn; it reports
// the median time at N (ns/op), at 10 (ms-at-10), the median of the
// rounds' ratios (x-of-10) and the peak RSS at N.
//
//	go test ./bench/savedruns -run '^$' -bench . -benchtime 21x
package savedruns

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sizes are the numbers of saved runs each command is timed at; the
// first is the baseline the others are held to (1.5× at most).
var sizes = []int{10, 4000, 50000}

func BenchmarkSavedRuns(b *testing.B) {
	root := b.TempDir()
	bin := filepath.Join(root, "chainrun")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "github.com/chainrun/chainrun")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building chainrun: %v\n%s", err, out)
	}
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(filepath.Join(work, "chains"), 0o755); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, "retention.yaml"), []byte("retention: {older_than: 3650d}\n"), 0o644)
	os.WriteFile(filepath.Join(work, "chains", "one.yaml"), []byte("name: one\nsteps:\n  - {id: s, type: cli, command: echo, args: [hi], output_var: o}\noutput: o\n"), 0o644)
	template := filepath.Join(root, "template")
	if out, err := command(bin, work, template, "run", "one", "-q").CombinedOutput(); err != nil {
		b.Fatalf("the template run: %v\n%s", err, out)
	}
	tmplRuns, _ := os.ReadDir(filepath.Join(template, "runs"))
	var tmpl string
	for _, e := range tmplRuns {
		if !strings.HasPrefix(e.Name(), ".") {
			tmpl = filepath.Join(template, "runs", e.Name())
		}
	}
	states := map[int]string{}
	middles := map[int]string{}
	for _, n := range sizes {
		state := filepath.Join(root, fmt.Sprintf("state%d", n))
		ids := clone(b, tmpl, state, n)
		states[n], middles[n] = state, ids[len(ids)/2]
		// the first command finds no index (the runs were copied in, as
		// an older chainrun leaves them) and makes it: not timed
		if out, err := command(bin, work, state, "runs", "-n", "1").CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
	ops := []struct {
		name string
		args func(n int) []string
	}{
		{"runs-n10", fixed("runs", "-n", "10")},
		{"show-last", fixed("runs", "show", "last")},
		{"resume-last", fixed("resume", "last", "-q")},
		{"partial-id", func(n int) []string { return []string{"runs", "show", middles[n][len(middles[n])-6:]} }},
		{"complete", fixed("__complete", "resume", "")},
		{"runs-first-line", fixed("runs")},
		{"runs-all", fixed("runs")},
		// a one-step run whose end prunes with retention (older_than
		// ten years: the index's oldest line ends it, nothing goes)
		{"run", fixed("run", "one", "-q")},
		{"run-retention", fixed("--config", "retention.yaml", "run", "one", "-q")},
	}
	for _, n := range sizes {
		for _, op := range ops {
			// each round times the command at n runs and at the first
			// size, in turn: a busy spell of the machine hits both
			b.Run(fmt.Sprintf("runs=%d/%s", n, op.name), func(b *testing.B) {
				var at, base, ratio []float64
				var rss int64
				for i := 0; b.Loop(); i++ {
					pair := [2]float64{}
					for k := range 2 {
						side := (i + k) % 2 // 0: n runs, 1: the baseline
						size := n
						if side == 1 {
							size = sizes[0]
						}
						cmd := command(bin, work, states[size], op.args(size)...)
						ms, peak := timed(b, cmd, op.name == "runs-first-line")
						pair[side] = ms
						if side == 0 {
							rss = max(rss, peak)
						}
					}
					at, base, ratio = append(at, pair[0]), append(base, pair[1]), append(ratio, pair[0]/pair[1])
				}
				b.ReportMetric(median(at)*1e6, "ns/op")
				b.ReportMetric(median(base), "ms-at-10")
				b.ReportMetric(median(ratio), "x-of-10")
				b.ReportMetric(float64(rss)/1024, "MiB-peak")
			})
		}
	}
}

func fixed(args ...string) func(int) []string { return func(int) []string { return args } }

// timed runs cmd to its end (or, firstLine, until its first line of
// output) and returns its wall time in ms and its peak RSS in KiB.
func timed(b *testing.B, cmd *exec.Cmd, firstLine bool) (float64, int64) {
	start := time.Now()
	if firstLine {
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		ms := float64(time.Since(start).Microseconds()) / 1000
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return ms, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	return float64(time.Since(start).Microseconds()) / 1000, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// command is chainrun ARGS in dir on the state directory state.
func command(bin, dir, state string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"CHAINRUN_STATE_DIR=" + state, "HOME=" + dir, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + dir}
	return cmd
}

// clone fills state with n copies of the saved run tmpl, each with its
// own id written into its files, one second older each, and returns the
// ids.
func clone(b *testing.B, tmpl, state string, n int) []string {
	old := filepath.Base(tmpl)
	entries, err := os.ReadDir(tmpl)
	if err != nil {
		b.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			data, _ := os.ReadFile(filepath.Join(tmpl, e.Name()))
			files[e.Name()] = string(data)
		}
	}
	// runs/.new as chainrun leaves it: its first run does not change
	// runs/ behind the index
	if err := os.MkdirAll(filepath.Join(state, "runs", ".new"), 0o700); err != nil {
		b.Fatal(err)
	}
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	ids := make([]string, 0, n)
	for i := range n {
		t := base.Add(-time.Duration(i) * time.Second)
		id := fmt.Sprintf("%s-%03d-%06x", t.Format("20060102-150405"), i%1000, (i*2654435761)&0xffffff)
		dir := filepath.Join(state, "runs", id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		started := t.Format("2006-01-02T15:04:05.000Z07:00")
		for name, text := range files {
			text = strings.ReplaceAll(text, old, id)
			if name == "run.json" {
				text = replaceField(text, "started_at", started)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
				b.Fatal(err)
			}
		}
		ids = append(ids, id)
	}
	return ids
}

// replaceField sets a string field of a JSON text to v.
func replaceField(text, field, v string) string {
	key := `"` + field + `": "`
	i := strings.Index(text, key)
	if i < 0 {
		return text
	}
	j := strings.IndexByte(text[i+len(key):], '"')
	return text[:i+len(key)] + v + text[i+len(key)+j:]
}
