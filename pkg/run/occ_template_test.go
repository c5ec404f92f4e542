package run

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A file read as OCC's fills its templates as OCC's resolver does (OCC
// mcp-server/src/utils.ts resolveVariables; mcp-server/src/executor.ts,
// where a step its condition skips stores "" and a step a router leaves
// out stores nothing): a fallback for a step the router left out, none
// for a step skipped by its condition (its value is ""), a reference that
// names nothing left as written, an unquoted fallback read as OCC reads it.
func TestOCCTemplatesRunAsOCC(t *testing.T) {
	const src = `
name: t
version: "1.0"
inputs: [{name: topic}]
steps:
  - id: classify
    type: router
    model: anthropic/claude-sonnet-4-6
    prompt: "kind?"
    routes: {web: [ui], lib: [docs]}
    output_var: kind
  - {id: ui, type: transform, operation: template, template_str: ui, depends_on: [classify], output_var: ui_out}
  - {id: docs, type: transform, operation: template, template_str: docs, depends_on: [classify], output_var: docs_out}
  - {id: off, type: transform, operation: template, template_str: "off", condition: '{topic} == "none"', output_var: off_out}
  - id: report
    type: transform
    operation: template
    template_str: '{ui_out|"N/A"};{docs_out|"N/A — not on this route"};{off_out|"fb"};{tpoic};{topic|none};{input.missing|dflt};{kind.x}'
    depends_on: [ui, docs, off]
    output_var: out
output: out
`
	s := llmtest.New(llmtest.Reply{Text: "web"})
	defer s.Close()
	res := runChain(t, src, map[string]string{"topic": "ai"}, WithModels(registryFor(s, nil)))
	if res.Status != record.Succeeded {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	if want := "ui;N/A — not on this route;;{tpoic};ai;dflt;web"; res.Output != want {
		t.Errorf("output %#v, want %q", res.Output, want)
	}
}

// chainrun's own format keeps its fallback rule: a step skipped by its
// condition is empty, and an empty value takes the fallback; the same
// steps in a file read as OCC's keep the empty value, as OCC does. The
// OCC file's condition reads a declared input as {input.topic} (once
// misread as {input.input.topic}, refused).
func TestOCCFallbackOnlyForAbsent(t *testing.T) {
	const steps = `inputs: [{name: topic}]
steps:
  - {id: off, type: transform, operation: template, template_str: "off", condition: '{input.topic} == "none"', output_var: off_out}
  - {id: report, type: transform, operation: template, template_str: '({off_out|"fb"})', depends_on: [off], output_var: out}
output: out
`
	for _, tc := range []struct{ head, want string }{
		{"name: own\n", "(fb)"},
		{"name: occ\nversion: '1.0'\n", "()"},
	} {
		res := runChain(t, tc.head+steps, map[string]string{"topic": "ai"})
		if res.Status != record.Succeeded || res.Output != tc.want {
			t.Errorf("%s: status %s output %#v, want %q (%s)", tc.head, res.Status, res.Output, tc.want, res.Error)
		}
	}
}

// A merge's input that names nothing is read as "", as OCC's merge reads
// a name it lacks (mcp-server/src/executor.ts: vars[v] ?? "", the empty
// ones left out of a concatenation): the others are merged.
func TestOCCMergeOfAMissingName(t *testing.T) {
	res := runChain(t, `
name: m
version: "1.0"
steps:
  - {id: a, type: transform, operation: template, template_str: one, output_var: a_out}
  - {id: b, type: transform, operation: template, template_str: two, output_var: b_out}
  - {id: m, type: merge, inputs: [a_out, c_out, b_out], strategy: concatenate, depends_on: [a, b], output_var: merged}
output: merged
`, nil)
	if want := "one\n\n---\n\ntwo"; res.Status != record.Succeeded || res.Output != want {
		t.Errorf("status %s output %q, want %q (%s)", res.Status, res.Output, want, res.Error)
	}
}

// An input a file read as OCC's reads without declaring it is one a run
// may give, as OCC passes every input it is given (mcp-server/src/
// executor.ts: vars["input.k"] for each input); without one, the
// reference stays as written (resolveVariables), and a condition
// comparing it does not hold.
func TestOCCUndeclaredInput(t *testing.T) {
	const src = `
name: u
version: "1.0"
steps:
  - {id: fast, type: transform, operation: template, template_str: fast, condition: '{input.mode} == "fast"', output_var: f}
  - {id: say, type: transform, operation: template, template_str: 'about {input.topic} [{f}]', depends_on: [fast], output_var: o}
output: o
`
	for _, tc := range []struct {
		inputs map[string]string
		want   string
	}{
		{map[string]string{"topic": "AI", "mode": "fast"}, "about AI [fast]"},
		{map[string]string{"topic": "tea"}, "about tea []"},
		{nil, "about {input.topic} []"},
	} {
		res := runChain(t, src, tc.inputs)
		if res.Status != record.Succeeded || res.Output != tc.want {
			t.Errorf("%v: status %s output %q, want %q (%s)", tc.inputs, res.Status, res.Output, tc.want, res.Error)
		}
	}
}

// An optional input a run does not give is absent in a file read as
// OCC's, as OCC's executor sets only the inputs a run gives (its
// multi-lang-translator writes "Context: {input.context}"): its fallback,
// else the reference as written. chainrun's own format reads it as "".
func TestOCCOptionalInputNotGiven(t *testing.T) {
	const steps = `inputs: [{name: context, optional: true}]
steps:
  - {id: say, type: transform, operation: template, template_str: 'Context: {input.context} / {input.context|"none"}', output_var: o}
output: o
`
	for _, tc := range []struct {
		head   string
		inputs map[string]string
		want   string
	}{
		{"name: occ\nversion: '1.0'\n", nil, "Context: {input.context} / none"},
		{"name: occ\nversion: '1.0'\n", map[string]string{"context": "legal"}, "Context: legal / legal"},
		{"name: own\n", nil, "Context:  / none"},
	} {
		res := runChain(t, tc.head+steps, tc.inputs)
		if res.Status != record.Succeeded || res.Output != tc.want {
			t.Errorf("%s%v: status %s output %q, want %q (%s)", tc.head, tc.inputs, res.Status, res.Output, tc.want, res.Error)
		}
	}
}
