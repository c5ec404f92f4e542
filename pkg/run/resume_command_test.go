package run

import (
	"errors"
	"os/exec"
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

// Every word of a printed command survives a shell as itself, whatever
// it holds.
func TestResumeCommandQuotesOddWords(t *testing.T) {
	odd := []string{"plain-1_2.3", "has space", "it's", "$(touch x)", "a;b", "-dash", "`x`", "*", "new\nline", "~user"}
	for _, w := range odd {
		line := ResumeCommand(w, w, w)
		out, err := exec.Command("sh", "-c", "printf '%s\\n' "+strings.TrimPrefix(line, "chainrun ")+" | tr '\\n' '|'").Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll("resume\n"+w+"\n--take\n"+w+"\n--rerun\n"+w+"\n", "\n", "|")
		if string(out) != want {
			t.Errorf("%q: the shell read %q, want %q", line, out, want)
		}
	}
}
