package store

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render/progress"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// syncBuffer is a writer shared by the printer's timer and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// verboseRun drives c as a saved run with --verbose's printer, and
// returns the run's id, its directory and what the printer wrote.
func verboseRun(t *testing.T, st *Store, c *chain.Chain, out *syncBuffer) (string, string) {
	t.Helper()
	printer := &progress.Printer{W: out, Verbose: true}
	engine := run.New(run.WithDir(t.TempDir()), run.WithLogLines(true), run.WithEvents(printer))
	ss, err := st.Start(c, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ss.Drive(context.Background(), engine, run.Request{Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	printer.Flush()
	return res.RunID, st.runDir(res.RunID)
}

// The lines --verbose streams are shown, every one, and the event log
// records that they were streamed (a step.streamed count of each stream's
// lines and bytes), not each line: the run's directory stays within 1.2
// times the output, and the run reads back (runs show, resume) as before.
func TestVerboseLinesAreCountedNotJournaled(t *testing.T) {
	for _, tc := range []struct {
		name, run string
		// lines and bytes streamed of each stream; shown is a line the
		// printer must have written
		stdout, stderr [2]int
		shown          string
		big            bool
	}{
		{"many short lines", "seq 150000", [2]int{150000, 938895}, [2]int{}, "[out] 149999\n", true},
		{"both streams, CRLF and an unended last line", `printf 'a\r\nb\r\n'; printf 'e1\ne2\ne3\n' >&2; printf 'tail'`, [2]int{3, 10}, [2]int{3, 9}, "[out] tail\n", false},
		{"lines longer than an event's line, and kept as a value", `head -c 300000 /dev/zero | tr '\0' z; echo; echo done`, [2]int{2 + 300000/(64<<10), 300006}, [2]int{}, "[out] done\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// a big output is streamed, not kept (kept, a value is saved
			// as it always was)
			keep := ", output_var: o"
			if tc.big {
				keep = ""
			}
			src := "name: chatty\nsteps:\n  - {id: out, type: cli, run: " + strconvQuote(tc.run) + keep + "}\n"
			l, err := chain.Parse("chatty.yaml", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := Open(t.TempDir())
			out := &syncBuffer{}
			id, dir := verboseRun(t, st, l.Chain, out)
			if !strings.Contains(out.String(), tc.shown) {
				t.Errorf("the printer did not show %q", tc.shown)
			}
			if n := strings.Count(out.String(), "[out] "); n != tc.stdout[0]+tc.stderr[0] {
				t.Errorf("the printer showed %d lines, want %d", n, tc.stdout[0]+tc.stderr[0])
			}
			log, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			streamed := map[string][2]int{}
			for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
				var e event.Event
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatal(err)
				}
				switch e.Type {
				case event.StepLog:
					t.Fatalf("the log holds a step.log line: %.200s", line)
				case event.StepStreamed:
					streamed[e.Stream] = [2]int{e.LineCount, int(e.Bytes)}
				}
			}
			if streamed["stdout"] != tc.stdout || streamed["stderr"] != tc.stderr {
				t.Errorf("step.streamed: %v, want stdout %v and stderr %v", streamed, tc.stdout, tc.stderr)
			}
			if tc.big {
				if size := dirSize(t, dir); float64(size) > 1.2*float64(tc.stdout[1]) {
					t.Errorf("the run's directory is %d bytes for %d of output", size, tc.stdout[1])
				}
			}
			sv, err := st.Summary(id)
			if err != nil || sv.Steps["out"].Result.Status != record.StepSucceeded {
				t.Fatalf("runs show: %v %+v", err, sv)
			}
			r, _, err := st.Resume(id)
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			if !tc.big {
				full, err := st.Load(id)
				if err != nil {
					t.Fatal(err)
				}
				if o, _ := full.Result.Vars["o"].(string); !strings.HasSuffix(o, strings.TrimPrefix(tc.shown, "[out] ")[:4]) {
					t.Errorf("the value kept is %.80q", o)
				}
			}
		})
	}
}

// A step that prints a line, then works a while before the next, has
// its first line shown while it still runs: buffering never holds a slow
// trickle back until the step ends.
func TestVerboseTrickleShowsWhileTheStepRuns(t *testing.T) {
	for _, tc := range []struct{ name, run, first string }{
		{"stdout", "echo first; sleep 3; echo second", "[out] first\n"},
		{"stderr", "echo warm >&2; sleep 3; echo second", "[out] warm\n"},
		{"a line in two writes", "printf 'hal'; sleep 0.2; echo 'f'; sleep 3; echo second", "[out] half\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, err := chain.Parse("trickle.yaml", []byte("name: trickle\nsteps:\n  - {id: out, type: cli, run: "+strconvQuote(tc.run)+"}\n"), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := &syncBuffer{}
			done := make(chan struct{})
			go func() {
				defer close(done)
				verboseRun(t, Open(t.TempDir()), l.Chain, out)
			}()
			start := time.Now()
			for !strings.Contains(out.String(), tc.first) {
				if time.Since(start) > 2*time.Second {
					t.Fatalf("after 2s the first line is not shown: %q", out.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			if strings.Contains(out.String(), "second") {
				t.Errorf("the first line was shown only with the step's last")
			}
			<-done
			if !strings.Contains(out.String(), "[out] second\n") {
				t.Errorf("the last line is not shown: %q", out.String())
			}
		})
	}
}

// strconvQuote is s as a YAML double-quoted scalar.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
