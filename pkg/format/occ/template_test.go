package occ

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A {reference} that names nothing, in a file read as OCC's, is left as
// written, as OCC's resolver leaves it (OCC mcp-server/src/utils.ts,
// resolveVariables: "keep original if no match"; mcp-server/tests/
// utils.test.ts, "leaves unresolved variables as-is"), with a warning
// naming the reference and its step; chainrun's own format refuses the
// same step, naming the reference.
func TestOCCUnknownReferenceLeftLiteral(t *testing.T) {
	cases := []struct{ name, step, ref string }{
		{"condition compared", `{id: a, model: openai/m, prompt: hi, condition: '{nope} == "x"'}`, "{nope}"},
		{"condition alone", "{id: a, model: openai/m, prompt: hi, condition: '{tpoic}'}", "{tpoic}"},
		{"early exit", `{id: a, model: openai/m, prompt: hi, early_exit_if: '{dnoe} == "yes"'}`, "{dnoe}"},
		{"prompt", "{id: a, model: openai/m, prompt: 'write about {tpoic}'}", "{tpoic}"},
		{"prompt naming pattern", "{id: a, model: openai/m, prompt: 'tables are stg_{source}_{entity}'}", "{source}"},
		{"bash pre_tool", "{id: a, model: openai/m, prompt: '{k}', pre_tools: [{type: bash, command: 'echo {colour}', inject_as: k}]}", "{colour}"},
		{"transform template", "{id: a, type: transform, operation: template, template_str: 'paint it {colour}', output_var: t}", "{colour}"},
		{"steps form", "{id: a, model: openai/m, prompt: 'see {steps.src.output}'}", "{steps.src.output}"},
		{"undeclared input", "{id: a, model: openai/m, prompt: 'repo {input.repo_path}'}", "{input.repo_path}"},
		{"bare input", "{id: a, model: openai/m, prompt: 'all of {input}'}", "{input}"},
		{"pre_tool url", "{id: a, model: openai/m, prompt: '{page}', pre_tools: [{type: http_fetch, url: 'http://127.0.0.1:9/{slug}', inject_as: page}]}", "{slug}"},
		{"loop condition item", `{id: a, type: loop, items_static: [x], step_template: {model: openai/m, prompt: go}, condition: '{item} == "x"'}`, "{item}"},
		{"debate agent", "{id: a, type: debate, model: openai/m, agents: [{prompt: '{nope}'}, {prompt: q}]}", "{nope}"},
		{"merge input", "{id: a, type: merge, inputs: [s, nope], depends_on: [src]}", "nope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := occBody(tc.step)
			l := loadOCC(t, body)
			found := false
			for _, w := range l.Warnings {
				found = found || strings.Contains(w.Message, tc.ref) && strings.Contains(w.Message, `step "a"`) &&
					strings.Contains(w.Message, "a likely typo")
			}
			if !found {
				t.Errorf("no warning naming %s and its step: %v", tc.ref, l.Warnings)
			}
			if strings.Contains(tc.step, "type: loop") || strings.Contains(tc.step, "type: debate") || strings.Contains(tc.step, "type: merge") {
				return // types only OCC has: no file of chainrun's own format holds them
			}
			_, err := Parse("c.yaml", []byte("name: c\n"+body), chain.Options{})
			if err == nil || !chain.IsValidation(err) || !strings.Contains(err.Error(), tc.ref) {
				t.Errorf("chainrun's own format: want %s refused, got %v", tc.ref, err)
			}
		})
	}
}

// An OCC file's templates are read as OCC's resolver reads them (OCC
// mcp-server/src/utils.ts resolveVariables, and mcp-server/tests/
// utils.test.ts "fallback values" and "compound keys"): a fallback,
// quoted or not, only for a variable that is absent (an empty one is
// kept); {key.sub} is the input sub, else the field sub of key when key
// has one (as chainrun reads it; OCC stores no fields), else the whole of
// key, as OCC gives it; a reference that resolves to nothing stays as
// written.
func TestOCCTemplateResolvesAsOCC(t *testing.T) {
	vars := map[string]string{"full": "v", "empty": "", "data": `{"b": "1"}`}
	cases := []struct{ prompt, want string }{
		{"{full|fb}", "v"},
		{`{full|"two words"}`, "v"},
		{"{absent|none}", "none"},
		{"{absent|two words}", "two words"},
		{`{absent|"two words"}`, "two words"},
		{`{absent|""}`, ""},
		{`{empty|"fb"}`, ""},
		{"{empty|fb}", ""},
		{"{absent}", "{absent}"},
		{"{data.b}", "1"},
		{"{data.zz}", `{"b": "1"}`},
		{"{full.zz}", "v"},
		{"{data.b.c}", "{data.b.c}"},
		{`{absent.zz|"fb"}`, "fb"},
		{"{input.topic}/{topic}", "ai/ai"},
		{`{input.nope|"x"}`, "x"},
		{"{input.nope}", "{input.nope}"},
		{"{{full}}", "{v}"},
		{"{{.full}}", "v"}, // reference 003's form, which chainrun files that declare version: write
	}
	for _, tc := range cases {
		t.Run(tc.prompt, func(t *testing.T) {
			src := "name: c\nversion: '1.0'\ninputs: [{name: topic}]\nsteps:\n" +
				"  - {id: full, model: openai/m, prompt: x, output_var: full}\n" +
				"  - {id: empty, model: openai/m, prompt: x, output_var: empty}\n" +
				"  - {id: data, model: openai/m, prompt: x, output_var: data}\n" +
				"  - {id: absent, model: openai/m, prompt: x, output_var: absent}\n" +
				"  - id: a\n    model: openai/m\n    depends_on: [full, empty, data, absent]\n    prompt: '" + strings.ReplaceAll(tc.prompt, "'", "''") + "'\n"
			l, err := Parse("c.yaml", []byte(src), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := l.Chain.Step("a").C().Prompt.Render(func(r chain.Ref) (string, bool, error) {
				if r.Name == "input" {
					if len(r.Path) == 1 && r.Path[0] == "topic" {
						return "ai", true, nil
					}
					return "", false, nil
				}
				v, ok := vars[r.Name]
				switch {
				case !ok || len(r.Path) == 0:
					return v, ok, nil
				case r.Name == "data" && len(r.Path) == 1 && r.Path[0] == "b":
					return "1", true, nil // the field, as chainrun reads it
				}
				return "", false, nil
			}, false)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s = %q, want %q", tc.prompt, got, tc.want)
			}
		})
	}
}

// chainrun's own format keeps its reading of the same forms: a fallback
// for a missing or empty variable, quoted only; a field of JSON.
func TestOwnFormatTemplateKeepsItsReading(t *testing.T) {
	tpl := chain.ParseTemplate(`{empty|"fb"} {x|none} {data.b}`)
	got, err := tpl.Render(func(r chain.Ref) (string, bool, error) {
		switch {
		case r.Name == "empty":
			return "", true, nil
		case r.Name == "data" && len(r.Path) == 1:
			return "field", true, nil
		}
		return "", false, nil
	}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := "fb {x|none} field"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// An output_var that is not letters, digits and '_' (OCC's schema takes
// any text; its README's pipeline names its chains static-analysis and
// final-report) loads in a file read as OCC's with a warning, the chain's
// output naming it; chainrun's own format refuses it.
func TestOCCOutputNameAsWritten(t *testing.T) {
	for _, name := range []string{"final-report", "report.v2", "1st"} {
		body := "steps:\n  - {id: a, model: openai/m, prompt: x, output_var: '" + name + "'}\noutput: '" + name + "'\n"
		l := loadOCC(t, body)
		found := false
		for _, w := range l.Warnings {
			found = found || strings.Contains(w.Message, `"`+name+`" is not letters, digits and '_'`)
		}
		if !found {
			t.Errorf("%s: no warning in %v", name, l.Warnings)
		}
		if _, err := Parse("c.yaml", []byte("name: c\n"+body), chain.Options{}); err == nil || !strings.Contains(err.Error(), `output_var "`+name+`": a variable name is letters`) {
			t.Errorf("%s: chainrun's own format: got %v", name, err)
		}
	}
}
