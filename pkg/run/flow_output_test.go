package run

import (
	"context"
	"reflect"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestWorkflowOutputWithoutOutputKey holds what a workflow with no
// `output:` gives: its context when something was merged into it, else
// the value its last executor or task produced (not {}), also when that
// value came before a pause that a resume continues; `output: context`
// keeps the context, empty or not.
func TestWorkflowOutputWithoutOutputKey(t *testing.T) {
	const tail = `
      assign:
        task: {kind: cli, run: 'echo assigned to u-42'}
        transition:
          branches: [{operator: default, goto: done}]
      done: {terminal: true}
`
	tests := []struct {
		name, head string
		want       any
	}{
		{"the last task's value", `
    initialState: triage
    states:
      triage:
        task: {kind: transform, expr: '"bug"'}
        transition:
          branches: [{operator: default, goto: assign}]`, "assigned to u-42"},
		{"the context, once something is merged into it", `
    initialState: scan
    states:
      scan:
        transitions:
          run_scan: {target: assign, actor: deterministic, executor: {kind: cli, run: 'echo "{\"issues\": 2}"'}}`, map[string]any{"issues": float64(2)}},
		{"output: context, empty", `
    output: context
    initialState: assign
    states:`, map[string]any{}},
	}
	for _, tt := range tests {
		res := runChain(t, "version: \"1\"\nworkflows:\n  w:"+tt.head+tail, nil)
		if res.Status != record.Succeeded || !reflect.DeepEqual(res.Output, tt.want) {
			t.Errorf("%s: %s %#v, want %#v (%s)", tt.name, res.Status, res.Output, tt.want, res.Error)
		}
	}
}

// TestWorkflowOutputAfterResume holds that a resumed workflow prints the
// value its last task produced before the pause, kept in the saved
// transitions.
func TestWorkflowOutputAfterResume(t *testing.T) {
	c := load(t, `version: "1"
workflows:
  w:
    initialState: assign
    states:
      assign:
        task: {kind: cli, run: 'echo assigned to u-42'}
        transition:
          branches: [{operator: default, goto: gate}]
      gate:
        transitions:
          ship: {target: done, actor: human}
      done: {terminal: true}
`)
	j := &memJournal{}
	e := New(WithDir(t.TempDir()))
	res, err := e.Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %s", err, res.Status)
	}
	res, err = e.Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "ship", RunID: res.RunID})
	if err != nil || res.Status != record.Succeeded || res.Output != "assigned to u-42" {
		t.Fatalf("%v %s %#v", err, res.Status, res.Output)
	}
}
