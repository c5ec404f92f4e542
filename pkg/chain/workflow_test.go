package chain

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestReferenceDeployPipeline loads reference 000's document as written.
func TestReferenceDeployPipeline(t *testing.T) {
	l, err := LoadFile("testdata/deploy_pipeline.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Warnings) > 0 {
		t.Errorf("warnings: %v", l.Warnings)
	}
	c := l.Chain
	w := c.Workflow
	if c.Name != "deploy_pipeline" || w == nil || w.Title != "Deploy Pipeline" || w.InitialState != "lint" || w.MaxChainDepth != 10 {
		t.Fatalf("chain %+v workflow %+v", c, w)
	}
	if len(w.States) != 6 || strings.Join(w.Tags, ",") != "deploy,deterministic,pipeline" {
		t.Errorf("states %d tags %v", len(w.States), w.Tags)
	}
	if len(c.Inputs) != 2 || c.Inputs[0].Name != "service" || !c.Inputs[0].Required() || c.Inputs[1].Name != "environment" || *c.Inputs[1].Default != "staging" {
		t.Errorf("inputs %+v %+v", c.Inputs[0], c.Inputs[1])
	}
	build := w.State("build").Transition("build_artifact")
	if build.Actor != ActorDeterministic || build.Target != "ready_to_deploy" || build.Executor.Kind != KindCLI ||
		keyValue(build.Executor, "command") != "build-artifact" || build.Executor.C().Args[1].JSONPath == nil {
		t.Errorf("build_artifact %+v", build)
	}
	if !w.State("lint").Automatic() || w.State("ready_to_deploy").Automatic() || w.State("deployed").Automatic() {
		t.Error("automatic states")
	}
	if got := w.State("ready_to_deploy").Transition("deploy").DisplayTitle(); got != "Deploy" {
		t.Errorf("title %q", got)
	}
}

const wfHead = "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n"

func TestWorkflowErrors(t *testing.T) {
	cases := []struct {
		name, states string
		want         []string
	}{
		{"unknown target", "      a:\n        transitions:\n          go: {target: finsh, actor: deterministic}\n      finish: {terminal: true}\n", []string{"c.yaml:8:16", `target "finsh" is not a state (did you mean finish?)`}},
		{"terminal with a task", "      a:\n        terminal: true\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: default, goto: end}]\n", []string{"is terminal: it cannot also have transitions or a task"}},
		{"task without branches", "      a:\n        task: {kind: transform, expr: '1'}\n", []string{"a task needs transition.branches"}},
		{"branches without task", "      a:\n        transition:\n          branches: [{operator: default, goto: end}]\n", []string{"need a task"}},
		{"bad operator", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: equal, when: x, goto: end}]\n", []string{`unknown operator "equal" (did you mean equals?)`}},
		{"bad range", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: range, when: '300,200', goto: end}, {operator: default, goto: end}]\n", []string{"min is greater than max"}},
		{"range not numbers", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: range, when: 'low', goto: end}]\n", []string{`range "low"`}},
		{"goto unknown", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: default, goto: nowhere}]\n", []string{`goto "nowhere" is not a state`}},
		{"compose strategy", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: default, goto: end, compose: {with_var: id, strategy: 'xpath:/a'}}]\n", []string{"use json_path:$.field"}},
		{"compose bad path", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: default, goto: end, compose: {with_var: id, strategy: 'json_path:$[['}}]\n", []string{"not a valid JSONPath"}},
		{"branch unknown key", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: default, goto: end, then: x}]\n", []string{`unknown field "then"`}},
		// an unknown state or transition field is ignored with a warning,
		// as mcp-flowgate ignores it: TestFlowgateUnknownKeysWarn
		{"executor unknown kind", "      a:\n        transitions:\n          go:\n            target: a\n            executor: {kind: shel, run: x}\n", []string{`transition "go" executor: unknown kind "shel" (did you mean shell?)`}},
		{"executor without kind", "      a:\n        transitions:\n          go:\n            target: a\n            executor: {run: x}\n", []string{"kind is required"}},
		{"executor depends_on", "      a:\n        transitions:\n          go:\n            target: a\n            executor: {kind: cli, run: x, depends_on: [b]}\n", []string{"depends_on does not apply here"}},
		{"executor kind field", "      a:\n        transitions:\n          go:\n            target: a\n            executor: {kind: cli, run: x, prompt: hi}\n", []string{`transition "go" executor: prompt does not belong to a cli step`}},
		{"executor unknown ref", "      a:\n        transitions:\n          go:\n            target: a\n            executor: {kind: cli, run: 'echo {artifact}'}\n", []string{`{artifact}: no input, context, transition or task output, or compose variable is named artifact`}},
		{"condition unknown name", "      a:\n        transitions:\n          go: {target: a, actor: deterministic, condition: 'ready == true'}\n", []string{`condition "ready == true": no input, context`}},
		{"condition bad syntax", "      a:\n        transitions:\n          go: {target: a, actor: deterministic, condition: 'context.x =='}\n", []string{`transition "go": condition`}},
		{"timeout bad", "      a:\n        timeout: soon\n        on_timeout: go\n        transitions:\n          go: {target: a}\n", []string{`timeout "soon"`}},
		{"on_timeout unknown", "      a:\n        timeout: 1h\n        on_timeout: stop\n        transitions:\n          go: {target: a}\n", []string{`on_timeout "stop" is not one of its transitions`}},
		{"timeout alone", "      a:\n        timeout: 1h\n        transitions:\n          go: {target: a}\n", []string{"timeout needs on_timeout"}},
		{"state named end", "      a:\n        transitions:\n          go: {target: end}\n      end: {terminal: true}\n", []string{`cannot be named "end"`}},
		{"empty branches", "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: []\n", []string{"transition.branches is empty"}},
		{"outcome unknown", "      a:\n        terminal: true\n        outcome: aborted\n", []string{`outcome is succeeded, failed or cancelled, not "aborted"`}},
		{"outcome not terminal", "      a:\n        outcome: failed\n        transitions:\n          go: {target: a}\n", []string{`outcome applies to a terminal state`}},
		{"output unknown operator", "      a:\n        transitions:\n          go:\n            target: a\n            output: {n: {sum: [1, 2]}}\n", []string{`output: n: unknown operator "sum"`}},
		{"output bad root", "      a:\n        transitions:\n          go:\n            target: a\n            output: {n: '$.contxt.x'}\n", []string{`"$.contxt.x" starts nowhere a transition can read`, "did you mean context?"}},
		{"output operands", "      a:\n        transitions:\n          go:\n            target: a\n            output: {n: {add: [1]}}\n", []string{"add takes two operands"}},
		{"output not a mapping", "      a:\n        transitions:\n          go:\n            target: a\n            output: [x]\n", []string{"output maps each context key"}},
		{"condition_key on cli", "      a:\n        task: {kind: cli, run: x, condition_key: [a]}\n        transition:\n          branches: [{operator: default, goto: end}]\n", []string{"condition_key"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(wfHead+tc.states), Options{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestWorkflowFileErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"no workflows", "version: '1'\nworkflows: {}\n", "workflows is empty: the file holds no workflow to run"},
		{"unknown top key", "version: '1'\nworkflow: {}\nworkflows:\n  w: {initialState: a, states: {a: {terminal: true}}}\n", `unknown field "workflow"`},
		{"no initial state", "workflows:\n  w:\n    states: {a: {terminal: true}}\n", "initialState is required"},
		{"initial state unknown", "workflows:\n  w:\n    initialState: b\n    states: {a: {terminal: true}}\n", `initialState "b" is not a state`},
		{"no states", "workflows:\n  w:\n    initialState: a\n", "states are required"},
		{"depth zero", "workflows:\n  w:\n    initialState: a\n    maxChainDepth: 0\n    states: {a: {terminal: true}}\n", "maxChainDepth must be 1 or more"},
		{"schema not object", "workflows:\n  w:\n    initialState: a\n    inputSchema: {type: string}\n    states: {a: {terminal: true}}\n", "type must be object"},
		{"schema invalid", "workflows:\n  w:\n    initialState: a\n    inputSchema: {type: object, properties: {n: {type: 7}}}\n    states: {a: {terminal: true}}\n", "inputSchema is not a valid JSON Schema"},
		{"unknown input ref", "workflows:\n  w:\n    initialState: a\n    inputSchema: {type: object, properties: {service: {type: string}}}\n    states:\n      a:\n        transitions:\n          go: {target: b, executor: {kind: cli, command: echo, args: ['{input.servce}']}}\n      b: {terminal: true}\n", "no input is named servce (did you mean service?)"},
		// an unknown workflow key is refused in chainrun's own reading
		// (as mcp-flowgate's, ignored with a warning: format/flowgate's
		// TestFlowgateUnknownKeysWarn)
		{"misspelt workflow key", "workflows:\n  w:\n    intialState: a\n    states: {a: {terminal: true}}\n", `c.yaml:3:5: workflow "w": unknown field "intialState" (did you mean initialState?)`},
		{"output unknown", "workflows:\n  w:\n    initialState: a\n    output: nothing\n    states: {a: {terminal: true}}\n", `output "nothing" names no transition`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
		})
	}
}

func TestWorkflowWarnings(t *testing.T) {
	cases := []struct{ name, states, want string }{
		{"unreachable", "      a:\n        transitions:\n          go: {target: b, actor: deterministic}\n      b: {terminal: true}\n      lost: {terminal: true}\n", `state "lost" is unreachable`},
		{"no default", "      a:\n        task: {kind: transform, expr: '\"x\"'}\n        transition:\n          branches: [{operator: equals, when: x, goto: end}]\n", "no default branch"},
		{"after default", "      a:\n        task: {kind: transform, expr: '\"x\"'}\n        transition:\n          branches: [{operator: default, goto: end}, {operator: equals, when: x, goto: end}]\n", "never taken"},
		{"never ends", "      a:\n        transitions:\n          go: {target: a, actor: deterministic}\n", "never ends"},
		{"ambiguous", "      a:\n        transitions:\n          x: {target: b, actor: deterministic}\n          y: {target: b, actor: deterministic}\n      b: {terminal: true}\n", "have no condition"},
		{"shared executor name", "      a:\n        transitions:\n          go: {target: b, actor: deterministic, executor: {kind: transform, expr: '1'}}\n      b:\n        transitions:\n          go: {target: c, actor: deterministic, executor: {kind: transform, expr: '2'}}\n      c: {terminal: true}\n", "share the name go"},
		{"decision without guidance", "      a:\n        transitions:\n          x: {target: b}\n      b: {terminal: true}\n", "no goal or guidance"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("c.yaml", []byte(wfHead+tc.states), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, w := range l.Warnings {
				all = append(all, w.String())
			}
			if !strings.Contains(strings.Join(all, "\n"), tc.want) {
				t.Errorf("warnings %v lack %q", all, tc.want)
			}
		})
	}
}

func TestSeveralWorkflowsInOneFile(t *testing.T) {
	src := "version: '1'\nworkflows:\n  one: {initialState: a, states: {a: {terminal: true}}}\n  two: {initialState: b, states: {b: {terminal: true}}}\n"
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Chains) != 2 || l.Named("two") == nil || l.Named("two").Workflow.InitialState != "b" || l.Chain.Name != "one" {
		t.Fatalf("chains %+v", l.Chains)
	}
}

// FuzzCompose: any compose strategy is compiled or rejected with a
// position when the workflow loads, and a compiled JSONPath selects from
// any JSON without a panic.
func FuzzCompose(f *testing.F) {
	f.Add("json_path:$.user.id", `{"user": {"id": 42}}`)
	f.Add("json_path:$..id", `[{"id": 1}, {"id": [2, 3]}]`)
	f.Add("json_path:$[?@.n > 1]", `[{"n": 1}, {"n": 2}]`)
	f.Add("json_path:", `null`)
	f.Add("xpath:/a", `{}`)
	f.Fuzz(func(t *testing.T, strategy, doc string) {
		src := wfHead + "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches:\n            - operator: default\n              goto: end\n              compose: {with_var: v, strategy: " + strconv.Quote(strategy) + "}\n"
		l, err := Parse("c.yaml", []byte(src), Options{})
		if err != nil {
			if !IsValidation(err) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		cp := l.Chain.Workflow.State("a").Branches[0].Compose
		var v any
		if json.Unmarshal([]byte(doc), &v) == nil {
			_ = cp.Path().Select(v)
		}
	})
}
