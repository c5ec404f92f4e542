package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// brokenJournal saves steps, and transitions until the disk fills: from
// the (saves+1)th on, a transition is refused.
type brokenJournal struct {
	memJournal
	saves int
}

func (b *brokenJournal) Transition(rec record.TransitionRecord) error {
	b.mu.Lock()
	n := len(b.transitions)
	b.mu.Unlock()
	if n >= b.saves {
		return errors.New("no space left on device")
	}
	return b.memJournal.Transition(rec)
}

// TestRunStopsAtTheFirstTransitionItCannotSave: a transition whose record
// cannot be saved stops the run at the state its journal leaves it in,
// with the context as saved, nothing after it run, and a retry link that
// a resume from that journal takes (with --rerun where the executor is
// not idempotent).
func TestRunStopsAtTheFirstTransitionItCannotSave(t *testing.T) {
	for _, tc := range []struct {
		name, src  string
		saves      int
		state, cmd string
	}{
		{"a transition with an executor", `
version: "1"
workflows:
  w:
    initialState: s0
    initialContext: {n: 0}
    states:
      s0:
        transitions:
          go:
            target: s1
            actor: deterministic
            executor: {kind: cli, command: sh, args: ["-c", "echo x >> go.log"]}
            output: {n: {add: ["$.context.n", 1]}}
      s1:
        transitions:
          charge: {target: done, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "echo x >> after.log"], idempotent: false}}
      done: {terminal: true}
`, 0, "s0", "chainrun resume RUN --take go"},
		{"a non-idempotent executor, after one saved", `
version: "1"
workflows:
  w:
    initialState: s0
    initialContext: {n: 0}
    states:
      s0:
        transitions:
          first: {target: s1, actor: deterministic, output: {n: {add: ["$.context.n", 1]}}}
      s1:
        transitions:
          charge:
            target: s2
            actor: deterministic
            executor: {kind: cli, command: sh, args: ["-c", "echo x >> go.log"], idempotent: false}
            output: {n: {add: ["$.context.n", 10]}}
      s2:
        transitions:
          fin: {target: done, actor: deterministic, executor: {kind: cli, command: sh, args: ["-c", "echo x >> after.log"]}}
      done: {terminal: true}
`, 1, "s1", "chainrun resume RUN --take charge --rerun charge"},
		{"a task", `
version: "1"
workflows:
  w:
    initialState: s0
    initialContext: {n: 0}
    states:
      s0:
        task: {kind: cli, command: sh, args: ["-c", "echo x >> go.log"]}
        transition:
          branches:
            - {operator: default, goto: s1}
      s1:
        task: {kind: cli, command: sh, args: ["-c", "echo x >> after.log"]}
        transition:
          branches:
            - {operator: default, goto: done}
      done: {terminal: true}
`, 0, "s0", "chainrun resume RUN --take s0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := load(t, tc.src)
			j := &brokenJournal{saves: tc.saves}
			res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, RunID: "RUN", Journal: j})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Failed || res.State != tc.state || !strings.Contains(res.Error, "no space left on device: the run stops at state "+tc.state) {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
			if _, err := os.Stat(filepath.Join(dir, "after.log")); err == nil {
				t.Error("a step after the unsaved transition ran")
			}
			if len(res.Links) != 1 || printed(res.Links[0]) != tc.cmd {
				t.Fatalf("links %+v, want %s", res.Links, tc.cmd)
			}
			if want := float64(tc.saves); res.Context["n"] != nil && toFloat(res.Context["n"]) != want {
				t.Errorf("context %v: not as saved", res.Context)
			}
			// the printed retry, from what the journal holds, finishes it
			l := res.Links[0]
			req := Request{Chain: c, RunID: "RUN", Journal: &memJournal{}, History: j.transitions, Take: l.Transition}
			if l.Rerun {
				req.Started, req.Rerun = map[string]bool{l.Transition: true}, map[string]bool{l.Transition: true}
			}
			res, err = New(WithDir(dir)).Run(context.Background(), req)
			if err != nil || res.Status != record.Succeeded {
				t.Fatalf("the printed retry: %v %+v", err, res)
			}
		})
	}
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case float64:
		return n
	}
	return -1
}

// printed is the resume command a link is shown with (as render prints it).
func printed(l response.Link) string {
	if l.Rerun {
		return response.ResumeCommand("RUN", l.Transition, l.Transition)
	}
	return response.ResumeCommand("RUN", l.Transition)
}
