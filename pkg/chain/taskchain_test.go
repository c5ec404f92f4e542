package chain

import (
	"errors"
	"strings"
	"testing"
)

// TestTaskChainFiles loads real contenox task chains: each maps onto a
// workflow, or is refused naming what chainrun cannot run.
func TestTaskChainFiles(t *testing.T) {
	tests := []struct {
		file    string
		initial string
		states  int
		refused string
	}{
		{file: "route-demo.json", initial: "classify", states: 3},
		{file: "agent-apitest-noop.json", initial: "reply", states: 1},
		{file: "chain-run.json", initial: "contenox_run", states: 5},
		{file: "agent-planner.json", refused: `agent-planner.json:10:7: task "plan_loop": execute_config: tool hook "mission" is not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, err := LoadFile("testdata/contenox/"+tt.file, Options{})
			if tt.refused != "" {
				var ve *ValidationError
				if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("err = %v, want it to say %q", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w := l.Chain.Workflow
			if w == nil || w.InitialState != tt.initial || len(w.States) != tt.states {
				t.Fatalf("workflow = %+v, want initial %s and %d states", w, tt.initial, tt.states)
			}
		})
	}
}

// TestTaskChainMapping checks what a task becomes: route's labels, the
// macros, the tools, the operators and on_failure.
func TestTaskChainMapping(t *testing.T) {
	l, err := LoadFile("testdata/contenox/chain-run.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := l.Chain.Workflow
	run := w.State("contenox_run")
	if got := strings.Join(run.Task.Tools, ","); got != strings.Join(BuiltinTools, ",") {
		t.Errorf("tools = %s, want every built-in tool", got)
	}
	if run.OnFailure != "recovery_run" {
		t.Errorf("on_failure = %q", run.OnFailure)
	}
	if _, ok := w.Counters[EdgeCounterVar("contenox_run", "run_tools")]; !ok {
		t.Errorf("counters = %v, want contenox_run->run_tools", w.Counters)
	}
	if strings.Contains(run.Task.System, "{{date}}") {
		t.Errorf("{{date}} was not expanded: %q", run.Task.System[:60])
	}
	b := run.Branches[0]
	if b.Operator != OpEdgeTraversed || b.Take("", func(Edge) int { return 9 }) || !b.Take("", func(Edge) int { return 10 }) {
		t.Errorf("branch 1 = %+v: want edge_traversed_at_least 10", b)
	}
	l, err = LoadFile("testdata/contenox/route-demo.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(l.Chain.Workflow.State("classify").Task.ConditionKey, ","); got != "code,question" {
		t.Errorf("route labels = %s", got)
	}
}

// TestTaskChainRefusals: what chainrun cannot run is named, with its
// position.
func TestTaskChainRefusals(t *testing.T) {
	tests := []struct{ src, want string }{
		{`{"id":"x","tasks":[{"id":"a","handler":"hook"}]}`, `1:30: task "a": handler "hook" is not one chainrun can run`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","colour":1}]}`, `unknown field "colour"`},
		{`{"id":"x","tasks":[{"id":"a","handler":"chat_completion","system_instruction":"{{weather}}"}]}`, `macro {{weather}} is not supported`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"branches":[{"operator":"edge_traversed_at_least","when":"2","edge":"a->b","goto":"end"},{"operator":"default","goto":"end"}]}}]}`, `edge "a->b": "b" is not a state`},
		{`{"id":"x","tasks":[{"id":"a","handler":"noop","transition":{"on_failure":"z","branches":[{"operator":"default","goto":"end"}]}}]}`, `on_failure "z" is not a state`},
	}
	for _, tt := range tests {
		_, err := Parse("x.json", []byte(tt.src), Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.src, err, tt.want)
		}
	}
}
