package run

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/response"
)

// The confirmation a resume asks for is one command that works pasted:
// a decision's transition needs --take as well as --rerun, or the run
// pauses at the same decision and asks again.
func TestRerunErrorPrintsTheWholeCommand(t *testing.T) {
	c := load(t, `
version: "1"
workflows:
  ship:
    initialState: ready
    states:
      ready:
        transitions:
          go_live: {target: done, actor: human, executor: {kind: cli, run: 'echo hi', idempotent: false}}
          abort: {target: done, actor: human}
      done: {terminal: true}
`)
	l := New(WithDir(t.TempDir()))
	err := l.checkRerun(c, Request{RunID: "20260101-000000-000-abcdef", Chain: c, Started: map[string]bool{"go_live": true}})
	var re *response.RerunError
	if !errors.As(err, &re) || !strings.HasSuffix(err.Error(), "resume with: chainrun resume 20260101-000000-000-abcdef --take go_live --rerun go_live") {
		t.Fatalf("err = %v", err)
	}
	// a --take given is kept
	err = l.checkRerun(c, Request{RunID: "x", Chain: c, Take: "go_live", Started: map[string]bool{"go_live": true}})
	if err == nil || !strings.HasSuffix(err.Error(), "chainrun resume x --take go_live --rerun go_live") {
		t.Fatalf("err = %v", err)
	}
}
