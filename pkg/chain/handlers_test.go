package chain

import (
	"slices"
	"testing"
)

const handlerSteps = "steps:\n  - {id: build, type: cli, command: make, output_var: built}\n"

// TestHandlersParse: each handler is a step or a list; a step without an
// id is named after its handler; Walk and HandlerSteps see them in the
// order they run.
func TestHandlersParse(t *testing.T) {
	c := mustParse(t, "name: c\n"+handlerSteps+`handlers:
  on_exit: {type: cli, run: 'echo {run.status} {built}'}
  on_failure:
    - {type: cli, run: 'echo {run.failed_step} {run.error}', output_var: why}
    - {id: page, type: cli, run: 'echo {why}', condition: 'run.status == "failed"'}
  on_success: {id: tell, type: transform, expr: 'run.id + built'}
`).Chain
	var got []string
	for _, s := range c.HandlerSteps() {
		got = append(got, s.Lifecycle()+"/"+s.ID)
	}
	if want := []string{"on_success/tell", "on_failure/on_failure-1", "on_failure/page", "on_exit/on_exit"}; !slices.Equal(got, want) {
		t.Errorf("handler steps = %q, want %q", got, want)
	}
	walked := 0
	c.Walk(func(*Step) { walked++ })
	if walked != 5 || c.Step("page") == nil || c.Step("build").Lifecycle() != "" {
		t.Errorf("walked %d steps", walked)
	}
}

// TestHandlerErrors: what a handler may not be or read is a validation
// error (exit 2) at the line to fix.
func TestHandlerErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"misspelt handler", "handlers:\n  on_sucess: {type: noop}\n",
			[]string{`c.yaml:5:3: handlers: unknown field "on_sucess" (did you mean on_success?); handlers are on_success, on_failure, on_cancel, on_exit`}},
		{"Dagu's spelling", "handlers:\n  failure: {type: noop}\n  onExit: {type: noop}\n",
			[]string{`c.yaml:5:3: handlers: unknown field "failure" (did you mean on_failure?)`, `c.yaml:6:3: handlers: unknown field "onExit" (did you mean on_exit?)`}},
		{"not a mapping", "handlers: [on_exit]\n",
			[]string{`c.yaml:4:11: handlers: write a mapping of on_success, on_failure, on_cancel, on_exit to a step or a list of steps`}},
		{"a handler that is no step", "handlers:\n  on_exit: notify\n",
			[]string{`c.yaml:5:12: handlers: on_exit: write a step (a mapping with its type) or a list of steps`}},
		{"an unknown field", "handlers:\n  on_exit: {id: bye, type: cli, command: x, colour: red}\n",
			[]string{`c.yaml:5:45: on_exit step "bye": unknown field "colour"`}},
		{"an id taken", "handlers:\n  on_exit: {id: build, type: noop}\n",
			[]string{`c.yaml:5:13: on_exit step "build": id "build" is already used by the step at line 3`}},
		{"depends_on", "handlers:\n  on_failure: {type: noop, depends_on: build}\n",
			[]string{`c.yaml:5:28: on_failure step "on_failure": depends_on: a handler runs once every step has finished, its steps in the order written; remove depends_on`}},
		{"early_exit_if", "handlers:\n  on_exit: {type: noop, early_exit_if: 'true'}\n",
			[]string{`c.yaml:5:25: on_exit step "on_exit": early_exit_if: the run has ended when a handler runs`}},
		{"a gate", "handlers:\n  on_failure: {type: gate, prompt: retry?}\n",
			[]string{`c.yaml:5:16: on_failure step "on_failure": a gate step cannot be a handler's: a handler runs once the run has ended, and decides or waits for nothing`}},
		{"a step reads a handler's output", "handlers:\n  on_exit: {type: transform, expr: '1', output_var: n}\n  on_success:\n    - {type: cli, command: echo, args: ['{n}']}\n",
			[]string{`c.yaml:7:34: on_success step "on_success": args: {n}: n is the output of on_exit step "on_exit", which has not run when on_success step "on_success" runs (a handler reads the chain's outputs and those of the steps before it in its own handler)`}},
		{"a later handler step", "handlers:\n  on_exit:\n    - {type: cli, command: echo, args: ['{m}']}\n    - {type: transform, expr: '1', output_var: m}\n",
			[]string{`c.yaml:6:34: on_exit step "on_exit-1": args: {m}: m is the output of on_exit step "on_exit-2", which has not run when on_exit step "on_exit-1" runs (a handler reads the chain's outputs and those of the steps before it in its own handler)`}},
		{"run is reserved", "  - {id: r, type: noop, output_var: run}\nhandlers:\n  on_exit: {type: noop}\n",
			[]string{`c.yaml:4:25: step "r": output_var run is reserved in a chain with handlers: they read how the run ended as {run.status}`}},
		{"the output is a handler's", "output: note\nhandlers:\n  on_exit: {type: transform, expr: '1', output_var: note}\n",
			[]string{`c.yaml:4:9: output "note" is the output_var of on_exit step "on_exit": the output is the chain's, decided before its handlers run`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := findings(t, "name: c\n"+handlerSteps+tc.src); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestHandlersOnlyInDAGChains: run is a handler's name alone, and a
// workflow's handlers: is refused saying what to use instead.
func TestHandlersOnlyInDAGChains(t *testing.T) {
	got := findings(t, "name: c\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{run.status}']}\n")
	if want := []string{`c.yaml:3:39: step "a": args: {run.status}: no input, step output_var or pre_tools inject_as is named run`}; !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
	got = findings(t, "version: '1'\nworkflows:\n  w:\n    initialState: a\n    handlers: {on_exit: {type: noop}}\n    states:\n      a: {terminal: true}\n")
	if want := []string{`c.yaml:5:5: workflow "w": handlers: lifecycle handlers belong to DAG chains; a workflow ends in its terminal states: give them an onEnter executor (a state with outcome: failed for a failure)`}; !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
}
