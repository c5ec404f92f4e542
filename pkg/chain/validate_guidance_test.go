package chain

import (
	"strings"
	"testing"
)

// TestGoalAndGuidanceReferencesAreChecked: {input.x}, {context.x} and
// {variable} in a state's goal or guidance are references, as in a
// prompt, and so are held to what the workflow has; so is the head of
// each {{ $.path }} placeholder. Each error names the state, the field
// and its line. A placeholder of an input the workflow does not declare
// is warned of, as mcp-flowgate accepts it (TestFlowgateUndeclaredInputsWarn).
func TestGoalAndGuidanceReferencesAreChecked(t *testing.T) {
	head := "version: '1'\nworkflows:\n  w:\n    inputSchema: {type: object, properties: {version: {type: string}}}\n    initialState: a\n    states:\n      a:\n"
	tail := "        transitions:\n          go: {target: b, actor: human, executor: {kind: cli, command: echo, output_var: built}}\n      b: {terminal: true}\n"
	cases := []struct{ name, lines, want string }{
		{"misspelt input", "        goal: Approve {input.verison}\n", `c.yaml:8:9: state "a": goal: {input.verison}: no input is named verison (did you mean version?)`},
		{"unknown variable", "        guidance: |\n          Look at {artefact} first.\n", `c.yaml:8:9: state "a": guidance: {artefact}: no input, context`},
		{"placeholder head", "        goal: 'v{{ $.output.text }}'\n", `state "a": goal: {{ $.output.text }}: $.output selects nothing here`},
		{"bare input", "        goal: 'v{input}'\n", `{input} needs an input name, as in {input.version}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(head+c.lines+tail), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %q", err, c.want)
			}
		})
	}
	ok := []string{
		"        goal: 'Approve {input.version} ({built}, {built.text}, {context.anything}) {{ $.context.x }} {{ $.input.version }} {{ $.arguments.a }}'\n",
		"        guidance: 'JSON {\"k\": 1} and \\{literal} and ${HOME} stay as written'\n",
	}
	for _, lines := range ok {
		l, err := Parse("c.yaml", []byte(head+lines+tail), Options{})
		if err != nil {
			t.Fatalf("%s: %v", lines, err)
		}
		s := l.Chain.Workflow.State("a")
		if s.GoalTemplate() == nil || s.GuidanceTemplate() == nil {
			t.Fatal("no templates")
		}
	}
	lenient, err := Parse("c.yaml", []byte(head+"        goal: '{nothing}'\n"+tail), Options{LenientVariables: true})
	if err != nil || len(lenient.Warnings) == 0 || !strings.Contains(lenient.Warnings[0].String(), "{nothing} shows as unset") {
		t.Fatalf("lenient: %v %v", err, lenient)
	}
}
