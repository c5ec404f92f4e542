package temporalrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// TestStartRefusesHandlers: a chain with lifecycle handlers is refused
// before it starts (exit 2), pointing at its handlers.
func TestStartRefusesHandlers(t *testing.T) {
	l, err := chain.Parse("c.yaml", []byte("name: c\nsteps: [{id: a, type: noop}]\nhandlers:\n  on_exit: {type: noop}\n"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Engine{}).start(run.Request{Chain: l.Chain})
	var re *RunError
	if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), "c.yaml:4:3: handlers: lifecycle handlers do not run on Temporal yet") {
		t.Errorf("got %v", err)
	}
}

// TestStartRefusesWhatIsOutsideTheFile: a workflow that a transition or
// a task runs, or a script an acknowledgment guard asks for, must be of
// the run's own file on Temporal, and such a workflow takes no
// timeout_ms; anything else is refused before the run starts (exit 2),
// naming where. Workflows of the same file, nested,
// and a script of the file's library start.
func TestStartRefusesWhatIsOutsideTheFile(t *testing.T) {
	const head = "version: \"1\"\nscripts:\n  deploy.x: {verb: deploy, body: \"echo hi\"}\nworkflows:\n"
	const child = "  child:\n    initialState: a\n    states:\n      a:\n        transitions:\n          w: {target: b, actor: deterministic, executor: {kind: noop}}\n      b: {terminal: true}\n"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"an executor's workflow of another file", head + "  p:\n    initialState: s\n    states:\n      s:\n        transitions:\n          call: {target: d, actor: deterministic, executor: {kind: workflow, definitionId: elsewhere}}\n      d: {terminal: true}\n",
			"c.yaml:10:78: transition \"call\" executor: definitionId elsewhere is not a workflow of this file"},
		{"a task's workflow of another file, reached through a sibling", head + child + "  mid:\n    initialState: s\n    states:\n      s:\n        task: {kind: workflow, definitionId: faraway}\n        transition:\n          branches: [{operator: default, goto: end}]\n  p:\n    initialState: s\n    states:\n      s:\n        transitions:\n          call: {target: d, actor: deterministic, executor: {kind: workflow, definitionId: mid}}\n      d: {terminal: true}\n",
			"definitionId faraway is not a workflow of this file"},
		{"a guard's script of another file", head + "  p:\n    initialState: s\n    states:\n      s:\n        transitions:\n          go: {target: d, actor: human, guards: [{kind: script_acknowledged, subject: ops.restart}]}\n      d: {terminal: true}\n",
			"transition go: script_acknowledged ops.restart: the script is not in this file's scripts: library"},
		{"a timeout on an executor's workflow", head + child + "  p:\n    initialState: s\n    states:\n      s:\n        transitions:\n          call: {target: d, actor: deterministic, executor: {kind: workflow, definitionId: child, timeout_ms: 5000}}\n      d: {terminal: true}\n",
			"timeout_ms of a workflow that a transition or task runs is not kept on Temporal yet"},
		{"the file's own workflows and scripts", head + child + "  p:\n    initialState: s\n    states:\n      s:\n        transitions:\n          call: {target: d, actor: deterministic, executor: {kind: workflow, definitionId: child}}\n      d:\n        transitions:\n          go: {target: e, actor: human, guards: [{kind: script_acknowledged, subject: deploy.x}]}\n      e: {terminal: true}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := chain.Parse("c.yaml", []byte(tc.src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = (&Engine{}).start(run.Request{Chain: l.Named("p")})
			var re *RunError
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (!errors.As(err, &re) || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want a refusal saying %q", err, tc.want)
			}
		})
	}
}
