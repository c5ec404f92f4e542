package chain

import (
	"strings"
	"testing"
)

// TestPipelineAndStructuralAnalysisLoad: mcp-flowgate's pipeline and
// structural_analysis executors, and the evidence: of a parallel
// executor's branches and a pipeline's steps, load; every mistake is
// named at its line.
func TestPipelineAndStructuralAnalysisLoad(t *testing.T) {
	cases := []struct {
		name, top, executor string
		want                string // "" loads; else a message the errors hold
	}{
		{"pipeline", "", "kind: pipeline\nsteps:\n  - {kind: noop}\n  - {kind: cli, command: echo, args: [\"$.arguments.x\", \"{arguments.y}\"]}\non_step_failure: continue\ntotal_timeout_ms: 1000\n", ""},
		{"pipeline of the smoke test", "", "kind: pipeline\nsteps:\n  - kind: noop\n  - kind: noop\non_step_failure: continue\n", ""},
		{"pipeline in a pipeline and a parallel", "", "kind: pipeline\nsteps:\n  - kind: pipeline\n    steps: [{kind: noop}]\n  - kind: parallel\n    branches: [{kind: noop}]\n", ""},
		{"pipeline of a script", lib, "kind: pipeline\nsteps: [{kind: script, subject: verify.green}]\n", ""},
		{"pipeline step with evidence", "", "kind: pipeline\nsteps:\n  - {kind: noop, evidence: {kind: built, id: 'b-{{$.workflow.id}}', summary: Built}}\n", ""},
		{"pipeline without steps", "", "kind: pipeline\n", `c.yaml:11:15: transition "go" executor: steps are required for a pipeline step`},
		{"pipeline of no steps", "", "kind: pipeline\nsteps: []\n", "c.yaml:12:15: transition \"go\" executor: steps is empty: a pipeline step needs at least one"},
		{"steps not a list", "", "kind: pipeline\nsteps: {kind: noop}\n", "c.yaml:12:22: state \"a\": transition \"go\": executor: steps: steps is a list of steps"},
		{"step not a mapping", "", "kind: pipeline\nsteps: [noop]\n", "c.yaml:12:23: state \"a\": transition \"go\": executor: steps: a pipeline's step is a step: a mapping with kind and its fields"},
		{"bad on_step_failure", "", "kind: pipeline\nsteps: [{kind: noop}]\non_step_failure: retry\n", `c.yaml:13:15: transition "go" executor: on_step_failure is bail or continue, not "retry"`},
		{"zero total timeout", "", "kind: pipeline\nsteps: [{kind: noop}]\ntotal_timeout_ms: 0\n", "total_timeout_ms must be 1 or more"},
		{"total timeout over 7 days", "", "kind: pipeline\nsteps: [{kind: noop}]\ntotal_timeout_ms: 700000000\n", "total_timeout_ms 700000000 is more than 604800000 (7 days)"},
		{"step with an id", "", "kind: pipeline\nsteps: [{kind: noop, id: x}]\n", `transition "go" executor step 1: id does not apply here`},
		{"step with an output_var", "", "kind: pipeline\nsteps: [{kind: noop}, {kind: noop, output_var: x}]\n", `transition "go" executor step 2: output_var does not apply here`},
		{"step of an unknown kind", "", "kind: pipeline\nsteps: [{kind: noop}, {kind: teleport}]\n", `c.yaml:12:38: transition "go" executor step 2: unknown kind "teleport"`},
		{"step without a kind", "", "kind: pipeline\nsteps: [{command: ls}]\n", `transition "go" executor step 1: kind is required`},
		{"step field of another kind", "", "kind: pipeline\nsteps: [{kind: noop, url: x}]\n", `transition "go" executor step 1: url does not belong to a noop step`},
		{"step reading the output", "", "kind: pipeline\nsteps: [{kind: rest, url: 'https://x', body: {a: \"$.output.x\"}}]\n", `reads the executor's output, which does not exist before it runs`},
		{"parallel field on a pipeline", "", "kind: pipeline\nsteps: [{kind: noop}]\non_branch_failure: continue\n", `on_branch_failure does not belong to a pipeline step (it is a field of parallel steps)`},
		{"steps on a parallel", "", "kind: parallel\nbranches: [{kind: noop}]\nsteps: [{kind: noop}]\n", `steps does not belong to a parallel step (it is a field of pipeline steps)`},
		{"step evidence without kind", "", "kind: pipeline\nsteps: [{kind: noop, evidence: {id: x}}]\n", "c.yaml:12:46: state \"a\": transition \"go\": executor: steps: evidence needs the kind it records"},
		{"branch evidence", "", "kind: parallel\nbranches:\n  - {kind: noop, evidence: {kind: review, id: 'arch-{{$.workflow.id}}', summary: Architecture review}}\n  - {kind: noop}\n", ""},
		{"fan-out evidence", "", "kind: parallel\nbranches: {for_each: \"$.context.items\", do: {kind: noop, evidence: {kind: item_done}}}\n", ""},
		{"branch evidence of an unknown field", "", "kind: parallel\nbranches: [{kind: noop, evidence: {kind: review, confidence: 1}}]\n", `c.yaml:12:64: state "a": transition "go": executor: branches: evidence: unknown field "confidence"`},
		{"branch evidence not a mapping", "", "kind: parallel\nbranches: [{kind: noop, evidence: review}]\n", "branches: evidence is a mapping: {kind: tests_passed}"},
		{"structural_analysis", "", "kind: structural_analysis\n", ""},
		{"structural_analysis of a context slot", "", "kind: structural_analysis\ndefinition: \"$.context.draft\"\n", ""},
		{"structural_analysis of a written definition", "", "kind: structural_analysis\ndefinition: {initialState: a, states: {a: {terminal: true}}}\n", ""},
		{"structural_analysis of the output", "", "kind: structural_analysis\ndefinition: \"$.output.x\"\n", `c.yaml:12:15: transition "go" executor: definition: "$.output.x" reads the executor's output`},
		{"structural_analysis of nowhere", "", "kind: structural_analysis\ndefinition: \"$.draft\"\n", `definition: "$.draft" starts nowhere a transition can read`},
		// a field no step has: refused in chainrun's own reading (as
		// mcp-flowgate's, ignored with a warning: format/flowgate's
		// TestFlowgateUnknownKeysWarn)
		{"structural_analysis field of no kind", "", "kind: structural_analysis\nrules: [CYCLE_DETECTED]\n", `c.yaml:12:15: state "a": transition "go": executor: unknown field "rules"`},
		{"definition on a cli step", "", "kind: cli\ncommand: ls\ndefinition: x\n", `definition does not belong to a cli step (it is a field of structural_analysis, dry_run, registry steps)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { expectLoad(t, executorFile(tc.top, tc.executor), tc.want) })
	}
}

// TestPipelineInADAGChain: a pipeline step of a DAG chain reads the step
// before's output as {arguments}; its steps get ids of their own.
func TestPipelineInADAGChain(t *testing.T) {
	src := "name: c\nsteps:\n  - id: p\n    type: pipeline\n    steps:\n      - {type: cli, run: 'echo {\"n\": 1}'}\n      - {type: cli, command: echo, args: ['{arguments.n}']}\n"
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	l.Chain.Walk(func(s *Step) { ids = append(ids, s.ID) })
	if got := strings.Join(ids, " "); got != "p p[0] p[1]" {
		t.Errorf("steps %q", got)
	}
	if _, err := Parse("c.yaml", []byte(strings.Replace(src, "{arguments.n}", "{argument.n}", 1)), Options{}); err == nil || !strings.Contains(err.Error(), "argument") {
		t.Errorf("a name nothing produces loads: %v", err)
	}
}
