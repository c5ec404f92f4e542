package chain

import (
	"strings"
	"testing"
)

// TestOCCKindsLoad: OCC's loop, merge, subchain, debate, webhook, browser
// and transform operations load as OCC's files write them (prompt and
// model where OCC puts them), and what they compile to is exposed.
func TestOCCKindsLoad(t *testing.T) {
	src := `name: t
inputs: [{name: list}]
steps:
  - {id: a, prompt: hi, model: anthropic/claude-sonnet-4-6, output_var: a}
  - id: l
    type: loop
    depends_on: [a]
    items_var: input.list
    max_parallel: 2
    loop_until: 'len(loop_result) > 3'
    prompt: "Each of {a}"
    model: anthropic/claude-haiku-4-5
    step_template:
      label: "Do {item}"
      pre_tools: [{type: bash, command: "echo {item}", inject_as: info}]
    output_var: each
  - {id: m, type: merge, depends_on: [l], inputs: [each, a], strategy: llm_summarize, model: anthropic/claude-haiku-4-5, prompt: "Join {a}", output_var: merged}
  - id: d
    type: debate
    depends_on: [m]
    model: anthropic/claude-haiku-4-5
    agents: [{role: X, prompt: "X on {merged}"}, {role: Y, prompt: "Y on {merged}", model: anthropic/claude-sonnet-4-6}]
    rounds: 2
    strategy: consensus
    prompt: decide
    output_var: verdict
  - {id: x, type: transform, depends_on: [d], operation: json_extract, input_var: verdict, json_path: a.b, prompt: extract, output_var: field}
  - {id: w, type: webhook, depends_on: [x], url: "https://hooks.example/occ", method: post, model: claude-sonnet-4-6, prompt: notify, output_var: resp}
  - {id: b, type: browser, url: "https://example.com", action: screenshot, model: claude-sonnet-4-6, prompt: look, tools: [Read], output_var: shot}
output: resp
`
	l, err := Parse("c.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := l.Chain
	lp, m, d, w := c.Steps[1], c.Steps[2], c.Steps[3], c.Steps[5]
	if tm := keyValue(lp, "step_template").(*Step); tm.Kind != KindAgent || tm.Agent().Prompt != "Each of {a}" || tm.Agent().Model != "anthropic/claude-haiku-4-5" || lp.C().ForEach == nil || lp.C().LoopUntil == nil {
		t.Errorf("loop template %+v", tm)
	}
	if ms := m.ModelStep(); ms == nil || ms.Agent().Prompt != "Join {a}\n\n## each\n{each}" || ms.Agent().Model != "anthropic/claude-haiku-4-5" {
		t.Errorf("merge model step %+v", ms)
	}
	if ds := d.Nested(); len(ds) != 3 || ds[1].Agent().Model != "anthropic/claude-sonnet-4-6" || d.ModelStep() == nil || keyValue(d, "rounds") != 2 {
		t.Errorf("debate %+v", d)
	}
	if w.HTTP().Method != "POST" {
		t.Errorf("webhook method %q", w.HTTP().Method)
	}
	var warned []string
	for _, wd := range l.Warnings {
		warned = append(warned, wd.String())
	}
	if !strings.Contains(strings.Join(warned, "\n"), `c.yaml:28:93: warning: step "w": model is ignored: a webhook step calls no model`) {
		t.Errorf("warnings %q", warned)
	}
}

// TestSubchainIsAChainStep: a subchain is a chain step whose inputs are
// its with; messages about them say inputs.
func TestSubchainIsAChainStep(t *testing.T) {
	c, err := Parse("c.yaml", []byte("name: t\nsteps:\n  - {id: s, type: subchain, chain: other, model: x, prompt: run it, inputs: {topic: '{input.t}', n: 3}, output_var: o}\ninputs: [t]\noutput: o\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Chain.Steps[0]
	with, _ := keyValue(s, "with").(map[string]string)
	if s.Kind != KindChain || keyValue(s, "chain") != "other" || with["topic"] != "{input.t}" || with["n"] != "3" || WithField(s) != "inputs" || s.C().With["topic"] == nil {
		t.Errorf("subchain %+v", s)
	}
}

// TestOCCKindErrors: every bad input of OCC's kinds is named by its field
// and line.
func TestOCCKindErrors(t *testing.T) {
	const h = "name: x\ninputs: [l]\nsteps:\n"
	tests := []struct{ name, src, want string }{
		{"loop without items", h + "  - {id: a, type: loop, step_template: {model: openai/m, prompt: go}}\n", `c.yaml:4:5: step "a": a loop step needs its items`},
		{"loop without template", h + "  - {id: a, type: loop, items_static: [x]}\n", `c.yaml:4:5: step "a": step_template is required`},
		{"loop template not a step", h + "  - {id: a, type: loop, items_static: [x], step_template: echo}\n", "step_template is a step"},
		{"loop template with id", h + "  - id: a\n    type: loop\n    items_static: [x]\n    step_template: {id: t, model: openai/m, prompt: go}\n", `c.yaml:7:21: step "a" step_template: id does not apply here`},
		{"loop bad on_error", h + "  - {id: a, type: loop, items_static: [x], loop_on_error: skip, step_template: {model: openai/m, prompt: go}}\n", "loop_on_error is abort or continue, not \"skip\""},
		{"loop bad max_parallel", h + "  - {id: a, type: loop, items_static: [x], max_parallel: 0, step_template: {model: openai/m, prompt: go}}\n", "max_parallel must be 1 or more"},
		{"loop unknown items_var", h + "  - {id: a, type: loop, items_var: nope, step_template: {model: openai/m, prompt: go}}\n", "items_var: {nope}: no input, step output_var"},
		{"merge without inputs", h + "  - {id: a, type: merge, strategy: concatenate}\n", `c.yaml:4:5: step "a": inputs is required for a merge step`},
		{"merge bad strategy", h + "  - {id: a, type: merge, inputs: [input.l], strategy: sum}\n", `strategy is concatenate, json_array, llm_summarize, pick_best, not "sum"`},
		{"merge with tools", h + "  - {id: a, type: merge, inputs: [input.l], tools: [Read]}\n", "tools does not belong to a merge step"},
		{"debate one agent", h + "  - {id: a, type: debate, agents: [{role: r, prompt: p}]}\n", "a debate needs at least two agents"},
		{"debate empty prompt", h + "  - {id: a, type: debate, agents: [{role: r, prompt: p}, {role: s}]}\n", "agent 2 has no prompt"},
		{"debate bad strategy", h + "  - {id: a, type: debate, strategy: concatenate, agents: [{prompt: p}, {prompt: q}]}\n", "a debate's strategy is consensus, vote or last_round"},
		{"debate bad rounds", h + "  - {id: a, type: debate, rounds: 0, agents: [{prompt: p}, {prompt: q}]}\n", "rounds must be 1 or more"},
		{"webhook without url", h + "  - {id: a, type: webhook}\n", "url is required for a webhook step"},
		{"webhook bad method", h + "  - {id: a, type: webhook, url: 'http://x', method: HEAD}\n", `a webhook's method is POST, PUT, PATCH, GET or DELETE, not "HEAD"`},
		{"subchain without chain", h + "  - {id: a, type: subchain, inputs: {x: y}}\n", "chain is required for a chain step"},
		{"subchain list inputs", h + "  - {id: a, type: subchain, chain: c, inputs: [x]}\n", "a subchain's inputs are a mapping"},
		{"transform both", h + "  - {id: a, type: transform, expr: '1', operation: split}\n", "set expr or operation, not both"},
		{"transform unknown op", h + "  - {id: a, type: transform, operation: splt, input_var: input.l}\n", `unknown operation "splt" (did you mean split?)`},
		{"transform op needs field", h + "  - {id: a, type: transform, operation: json_extract, input_var: input.l}\n", "operation json_extract needs json_path"},
		{"transform op needs input", h + "  - {id: a, type: transform, operation: split}\n", "operation split reads input_var"},
		{"transform bad regex", h + "  - {id: a, type: transform, operation: filter, input_var: input.l, regex: '('}\n", "regex: error parsing regexp"},
		{"transform op field on expr", h + "  - {id: a, type: transform, expr: '1', regex: x}\n", "regex belongs to a transform operation"},
		{"transform unknown input_var", h + "  - {id: a, type: transform, operation: split, input_var: nope}\n", "input_var: {nope}: no input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tt.src), Options{})
			if err == nil || !IsValidation(err) {
				t.Fatalf("want a validation error, got %v", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error does not contain %q:\n%s", tt.want, err)
			}
		})
	}
}

// TestNestedStepsReadTheirParentsScope: a step written inside another (a
// parallel step's branch in a DAG chain) reads the outputs of the steps
// its parent depends on, and the parent's pre_tools.
func TestNestedStepsReadTheirParentsScope(t *testing.T) {
	src := "name: p\ninputs: [a]\nsteps:\n  - {id: one, type: cli, run: echo hi, output_var: o}\n  - id: two\n    type: parallel\n    depends_on: [one]\n    pre_tools: [{type: shell, run: echo, inject_as: pre}]\n    branches:\n      - {kind: cli, run: 'echo {o} {pre} {input.a}'}\n    output_var: r\noutput: r\n"
	if _, err := Parse("c.yaml", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(src, "    depends_on: [one]\n", "", 1)
	if _, err := Parse("c.yaml", []byte(bad), Options{}); err == nil || !strings.Contains(err.Error(), `o is the output of step "one", which "two" does not depend on`) {
		t.Errorf("without depends_on: %v", err)
	}
}
