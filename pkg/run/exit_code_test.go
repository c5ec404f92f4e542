package run

import (
	"testing"
	"time"
)

// TestCommandExitCode: the exit status of the command whose failure
// failed the run, and 0 whenever the run did not fail that way.
func TestCommandExitCode(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		step      string // the failed step, "" for none
		code      int
	}{
		{"a command's status", `
name: t
steps:
  - {id: a, type: cli, run: 'exit 7'}`, "a", 7},
		{"the last attempt's", `
name: t
steps:
  - {id: a, type: cli, run: 'test -f tried && exit 9; touch tried; exit 8', retry: {max: 2}}`, "a", 9},
		{"the step the error names, not the sibling it cancelled", `
name: t
steps:
  - {id: slow, type: cli, run: 'sleep 5'}
  - {id: fast, type: cli, run: 'exit 42'}`, "fast", 42},
		{"after a step that failed under continue_on_error", `
name: t
steps:
  - {id: soft, type: cli, run: 'exit 5', continue_on_error: true}
  - {id: hard, type: cli, run: 'exit 6', depends_on: [soft]}`, "hard", 6},
		{"a step failing under continue_on_error alone fails no run", `
name: t
steps:
  - {id: soft, type: cli, run: 'exit 5', continue_on_error: true}`, "", 0},
		{"a success", `
name: t
steps:
  - {id: a, type: cli, run: 'exit 0'}`, "", 0},
		{"a timeout is a signal, no status", `
name: t
steps:
  - {id: a, type: cli, run: 'sleep 5', timeout_ms: 100}`, "a", 0},
		{"a step that runs no command", `
name: t
steps:
  - {id: a, type: transform, expr: 'int("x")'}`, "a", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res := runChain(t, tc.src, nil)
			c := load(t, tc.src)
			s, ok := res.FailedStep(c)
			if ok != (tc.step != "") || s.ID != tc.step {
				t.Fatalf("FailedStep = %q, %v; want %q (status %s, error %q)", s.ID, ok, tc.step, res.Status, res.Error)
			}
			if got := res.CommandExitCode(c); got != tc.code {
				t.Errorf("CommandExitCode = %d, want %d", got, tc.code)
			}
			if got := res.CommandExitCode(nil); got != tc.code {
				t.Errorf("CommandExitCode without the chain = %d, want %d", got, tc.code)
			}
			if time.Since(start) > 4*time.Second {
				t.Errorf("the run waited for a cancelled step")
			}
		})
	}
}
