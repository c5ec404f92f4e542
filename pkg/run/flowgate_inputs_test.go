package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// The cases below pin how mcp-flowgate (github.com/matt-cochran/mcp-flowgate,
// commit 443aa7a) treats the inputs of a workflow: runtime.rs start
// validates the input only against an inputSchema (runtime_schema.rs
// validate_schema returns Ok without one), and an input not given
// resolves per place: the cli executor's render_arg
// (crates/mcp-flowgate-executors/src/cli.rs) passes the path as written;
// mapping.rs resolve_value makes it null (concat writes "null",
// resolve_operands counts it 0); guards.rs resolve_operand makes it
// null; templating.rs resolve_template_path shows "(x: unset)"; the mcp
// executor's render_args (mcp.rs) leaves its key out.

// TestFlowgateWorkflowTakesAnyInput: a workflows: file's workflow without
// inputSchema runs with any --input, each readable as $.workflow.input.x;
// an additionalProperties: false schema still refuses an unknown one
// before anything runs, and a DAG chain keeps its declared inputs.
func TestFlowgateWorkflowTakesAnyInput(t *testing.T) {
	states := `    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: cli, command: echo, args: ["$.workflow.input.who", "$.input.n"]}
            output: {said: "$.output.text", who: "$.workflow.input.who", n: "$.workflow.input.n"}
      b: {terminal: true}
`
	for name, tc := range map[string]struct {
		schema string
		inputs map[string]string
		want   string // the context, or the refusal
	}{
		"no inputSchema":                           {"", map[string]string{"who": "ann", "n": "3"}, `{"n":"3","said":"ann 3","who":"ann"}`},
		"no inputSchema, one given":                {"", map[string]string{"who": "bo b"}, `{"n":null,"said":"bo b $.input.n","who":"bo b"}`},
		"an open inputSchema":                      {"    inputSchema: {type: object, properties: {n: {type: integer}}}\n", map[string]string{"who": "cy", "n": "7"}, `{"n":7,"said":"cy 7","who":"cy"}`},
		"an open inputSchema, its input not given": {"    inputSchema: {type: object, properties: {n: {type: integer}}}\n", map[string]string{"who": "dee"}, `{"n":null,"said":"dee $.input.n","who":"dee"}`},
		"additionalProperties: false":              {"    inputSchema: {type: object, properties: {n: {type: integer}}, additionalProperties: false}\n", map[string]string{"who": "cy", "n": "7"}, `unknown input "who" (its inputs are n)`},
	} {
		t.Run(name, func(t *testing.T) {
			c := load(t, wf(tc.schema+states))
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: tc.inputs})
			var ie *given.InputError
			if errors.As(err, &ie) {
				if !strings.Contains(ie.Msg, tc.want) {
					t.Fatalf("refused: %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil || res.Status != record.Succeeded {
				t.Fatalf("%v %+v", err, res)
			}
			if got := asJSON(t, res.Context); got != tc.want {
				t.Errorf("context\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	dag := load(t, "name: d\ninputs: [topic]\nsteps:\n  - {id: s, type: cli, command: echo, args: ['{input.topic}']}\n")
	_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: dag, Inputs: map[string]string{"topic": "x", "who": "ann"}})
	var ie *given.InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, `unknown input "who" (its inputs are topic)`) {
		t.Errorf("a DAG chain's unknown input: %v", err)
	}
}

// TestFlowgateUnsetInputResolvesPerPlace: an input a workflows: file's
// workflow reads but the run does not give is, as in mcp-flowgate, the
// path as written in a cli argument, null in an output mapping, "null"
// in a concat, 0 in arithmetic, null in a guard, "(x: unset)" in a goal.
func TestFlowgateUnsetInputResolvesPerPlace(t *testing.T) {
	src := wf(`    states:
      a:
        goal: 'Review {{ $.workflow.input.topic }} for {{ $.workflow.input.who }}'
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: cli, command: echo, args: [hi, "$.workflow.input.who"]}
            output:
              said: "$.output.text"
              who: "$.workflow.input.who"
              joined: {concat: ["by-", "$.workflow.input.who"]}
              next: {add: ["$.workflow.input.count", 1]}
      b:
        goal: 'Review {{ $.workflow.input.topic }} for {{ $.workflow.input.who }}'
        transitions:
          flagged: {target: c, actor: deterministic, guards: [{kind: expr, expr: "$.workflow.input.flag == 'yes'"}]}
          unflagged: {target: d, actor: deterministic, guards: [{kind: expr, expr: "$.workflow.input.flag == null"}]}
      c: {terminal: true}
      d:
        goal: 'Review {{ $.workflow.input.topic }} for {{ $.workflow.input.who }}'
        transitions:
          done: {target: e, actor: human}
      e: {terminal: true}
`)
	for name, tc := range map[string]struct {
		inputs           map[string]string
		state, goal, ctx string
	}{
		"nothing given": {nil, "d", "Review (topic: unset) for (who: unset)",
			`{"joined":"by-null","next":1,"said":"hi $.workflow.input.who","who":null}`},
		"who and count given": {map[string]string{"who": "ann", "count": "4"}, "d", "Review (topic: unset) for ann",
			`{"joined":"by-ann","next":5,"said":"hi ann","who":"ann"}`},
		"flag given": {map[string]string{"flag": "yes", "topic": "tls"}, "c", "",
			`{"joined":"by-null","next":1,"said":"hi $.workflow.input.who","who":null}`},
	} {
		t.Run(name, func(t *testing.T) {
			res := runChain(t, src, tc.inputs)
			if res.State != tc.state {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
			if got := asJSON(t, res.Context); got != tc.ctx {
				t.Errorf("context\n got %s\nwant %s", got, tc.ctx)
			}
			if tc.goal != "" && (res.Guidance == nil || res.Guidance.Goal != tc.goal) {
				t.Errorf("guidance %+v, want goal %q", res.Guidance, tc.goal)
			}
		})
	}
}

// TestFlowgateUnsetInputLeavesAnMCPArgumentOut: an mcp executor's map
// reading an input not given leaves that argument out, as mcp.rs
// render_args (commit 443aa7a) inserts only what resolves.
func TestFlowgateUnsetInputLeavesAnMCPArgumentOut(t *testing.T) {
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	src := flowOf("connections:\n  t: {kind: mcp, url: '"+web.URL+"'}\n", `      a:
        transitions:
          call:
            target: b
            actor: deterministic
            executor: {kind: mcp, connection: t, tool: json, map: {who: "$.workflow.input.who", tag: "$.workflow.input.tag", fixed: "$.context.k"}}
            output: {sent: "$.output.text"}
      b: {terminal: true}
`)
	src = strings.Replace(src, "    initialState: a\n", "    initialContext: {k: 1}\n    initialState: a\n", 1)
	for given, want := range map[string]string{
		"":    `{"fixed":1}`,
		"tag": `{"fixed":1,"tag":"v"}`,
	} {
		inputs := map[string]string{}
		if given != "" {
			inputs[given] = "v"
		}
		res := runFlow(t, src, Request{Inputs: inputs})
		if res.Status != record.Succeeded || res.Context["sent"] != want {
			t.Errorf("%q given: %s %v %s", given, res.Status, res.Context["sent"], res.Error)
		}
	}
}

// TestUnresolvedPlaceholderRendersStub ports guidance.rs (commit 443aa7a,
// crates/mcp-flowgate-core/tests/) unresolved_placeholder_renders_stub_not_error:
// a workflow without inputSchema, started with no input, whose guidance
// reads a key nothing set, pauses with its guidance rendered
// "(missingKey: unset)", no placeholder left, no error; here for an
// undeclared input, beside the context key of the original.
func TestUnresolvedPlaceholderRendersStub(t *testing.T) {
	for _, path := range []string{"$.context.missingKey", "$.workflow.input.missingKey", "$.workflow.input.nested.missingKey"} {
		src := wf(`    states:
      a:
        guidance: "Count is {{ ` + path + ` }} items"
        transitions:
          proceed: {target: done, actor: agent}
      done: {terminal: true}
`)
		res := runChain(t, src, nil)
		if res.Status != record.Paused || res.State != "a" || res.Guidance == nil {
			t.Fatalf("%s: %s at %s: %s", path, res.Status, res.State, res.Error)
		}
		if got := res.Guidance.Instructions; got != "Count is (missingKey: unset) items" {
			t.Errorf("%s: instructions %q", path, got)
		}
	}
}
