package run

import (
	"strings"
	"testing"
)

// --dry-run shows a step's pre_tools, resolved like its command.
func TestPlanShowsPreTools(t *testing.T) {
	c := load(t, `
name: t
inputs: [{name: who}]
steps:
  - id: s
    type: shell
    pre_tools:
      - {type: shell, run: 'echo pre-{input.who}', inject_as: pre}
      - {type: http, url: 'http://example.com/{input.who}', inject_as: page}
      - {type: file, path: 'notes/{input.who}.txt', inject_as: notes}
    run: 'echo {pre} {page} {notes}'
`)
	plan, err := New(WithDir(t.TempDir())).Plan(Request{Chain: c, Inputs: map[string]string{"who": "ada"}})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(plan[0].PreTools, "|")
	if got != "pre ← shell: echo pre-ada|page ← http: GET http://example.com/ada|notes ← file: notes/ada.txt" {
		t.Errorf("pre_tools = %q", got)
	}
}
