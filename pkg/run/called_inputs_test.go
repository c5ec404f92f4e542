package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestCalledCapabilityTakesWhatItsContractRefuses follows mcp-flowgate's
// own end-to-end walks of its orchestrators over the first versions of
// its v0.6 fixtures (flow_orchestrators_e2e.rs at 404f7b7 walks
// flow.bugfix-from-error-log, which passes its fix plan, an object, as
// cap.implement.scope-bounded's required array scope_paths;
// meta_orchestrators_e2e.rs at 6af3b47 walks flow.author-flow, which
// passes its goal's text as cap.implement.emit-yaml's kind, declared as
// one of capability and orchestrator). mcp-flowgate checks a called
// workflow's input only against an inputSchema, and its snippet
// contract not at all: each walk reaches its terminal state. chainrun
// passes such a value on as given, with a warning naming the input, and
// a required input so given is not "missing".
func TestCalledCapabilityTakesWhatItsContractRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		decl, given, want, warn string
	}{
		"an object for a required array": {`{type: array, required: true}`, `{title: plan, scope_paths: []}`, `{"scope_paths":[],"title":"plan"}`,
			`declares input "v" of type array, but it is given an object: passed on as given`},
		"a text outside the enum": {`{type: string, required: true, enum: [capability, orchestrator]}`, `"Author flow.deploy"`, `"Author flow.deploy"`,
			`declares input "v" as one of capability, orchestrator, but it is given "Author flow.deploy": passed on as given`},
		"a number outside the enum": {`{type: integer, enum: [1, 2]}`, `7`, `7`,
			`declares input "v" as one of 1, 2, but it is given "7": passed on as given`},
	} {
		t.Run(name, func(t *testing.T) {
			// the callee is a stub as the fixtures' capabilities are: its
			// initial state terminal, its inputs its context
			src := "workflows:\n" +
				"  flow.calls:\n    initialState: a\n    initialContext: {x: " + tc.given + "}\n    states:\n      done: {terminal: true}\n      a:\n        transitions:\n" +
				"          call: {target: done, actor: deterministic, executor: {kind: workflow, definitionId: cap.plan.callee,\n" +
				"            use: {inputs: {v: $.context.x, other: $.context.x}, outputs: {$.context.got: v}}}}\n" +
				"  cap.plan.callee:\n    verb: plan\n    initialState: stub\n    states: {stub: {terminal: true}}\n" +
				"    snippet: {outputs: {v: {}}, inputs: {other: {type: string}, v: " + tc.decl + "}}\n"
			res := runFlow(t, src, Request{})
			got := asJSON(t, res.Context["got"])
			said := strings.Join(res.Warnings, "\n")
			switch {
			case res.Status != record.Succeeded || res.State != "done":
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			case got != tc.want:
				t.Errorf("the callee got %s, not %s as given", got, tc.want)
			case !strings.Contains(said, tc.warn):
				t.Errorf("no warning %q in:\n%s", tc.warn, said)
			}
		})
	}
}
