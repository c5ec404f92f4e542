package run

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFailedCommandKeepsTheTailOfItsOutput: a failed command's result
// keeps the last lines of both its streams, bounded, masked, whichever
// stream it wrote to; its error names the last line of stderr only.
func TestFailedCommandKeepsTheTailOfItsOutput(t *testing.T) {
	tests := []struct {
		name, run      string
		stdout, stderr []string // lines the tail must hold
		notStdout      []string // lines it must not
		wantError      string
		maxStdout      int
	}{
		{name: "only stdout, more lines than kept",
			run:    `i=1; while [ $i -le 35 ]; do echo "--- FAIL: TestCase$i"; i=$((i+1)); done; exit 1`,
			stdout: []string{"--- FAIL: TestCase16", "--- FAIL: TestCase35"}, notStdout: []string{"--- FAIL: TestCase15\n"},
			wantError: "exited with code 1"},
		{name: "both streams",
			run:    `echo "ok  pkg/a"; echo "FAIL pkg/b"; printf 'warn one\nfatal: two\n' >&2; exit 2`,
			stdout: []string{"ok  pkg/a\nFAIL pkg/b"}, stderr: []string{"warn one\nfatal: two"},
			wantError: "exited with code 2: fatal: two"},
		{name: "one line over the byte bound",
			run:    `yes é | head -n 30000 | tr -d '\n'; echo; echo last; exit 3`,
			stdout: []string{"\nlast"}, maxStdout: 4200,
			wantError: "exited with code 3"},
		{name: "a secret printed",
			run:    `echo "token is $TOKEN"; echo "$TOKEN" >&2; exit 4`,
			stdout: []string{"token is ***"}, stderr: []string{"***"}, notStdout: []string{"s3cr3t-Tail"},
			wantError: "exited with code 4: ***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runChain(t, `
name: t
inputs: [{name: token, secret: true}]
steps:
  - id: c
    type: cli
    env: {TOKEN: "{input.token}"}
    run: |
      `+tt.run+`
`, map[string]string{"token": "s3cr3t-Tail"})
			s := step(t, res, "c")
			if s.Status != record.StepFailed || s.Error != tt.wantError {
				t.Errorf("status %s, error %q; want failed, %q", s.Status, s.Error, tt.wantError)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(s.Stdout, want) {
					t.Errorf("stdout tail %q does not hold %q", s.Stdout, want)
				}
			}
			for _, not := range tt.notStdout {
				if strings.Contains(s.Stdout+"\n", not) || strings.Contains(s.Stderr, not) {
					t.Errorf("tail holds %q: stdout %q stderr %q", not, s.Stdout, s.Stderr)
				}
			}
			for _, want := range tt.stderr {
				if !strings.Contains(s.Stderr, want) {
					t.Errorf("stderr tail %q does not hold %q", s.Stderr, want)
				}
			}
			if tt.stderr == nil && s.Stderr != "" {
				t.Errorf("stderr tail %q, want none", s.Stderr)
			}
			for _, tail := range []string{s.Stdout, s.Stderr} {
				if n := strings.Count(tail, "\n") + 1; n > 20 || len(tail) > 4200 || !utf8.ValidString(tail) {
					t.Errorf("tail of %d lines, %d bytes (valid UTF-8: %v): not bounded", n, len(tail), utf8.ValidString(tail))
				}
			}
		})
	}
}

// TestSucceededCommandKeepsNoTail: the tails are a failure's; a success
// keeps its output as its value only.
func TestSucceededCommandKeepsNoTail(t *testing.T) {
	res := runChain(t, "name: t\nsteps:\n  - {id: c, type: cli, run: 'echo fine; echo note >&2'}\n", nil)
	if s := step(t, res, "c"); s.Stdout != "" || s.Stderr != "" {
		t.Errorf("a success keeps tails: %+v", s)
	}
}
