package occ

import "testing"

// OCC 13d9853 mcp-server/src/executor.ts's transform, as
// executor-steps.test.ts ("Transform edge cases") pins it: a transform
// without an operation, with one OCC lacks, or with an empty regex runs
// in an OCC file (a warning says how), and is refused in chainrun's own
// format, naming the step.
func TestOCCTransformReadings(t *testing.T) {
	cases := []struct {
		name, step, warning, refusal string
	}{
		{"no operation", "{id: t, type: transform, input_var: s, output_var: o, depends_on: [src]}",
			"no operation: the input is the output, as OCC runs it", `step "t": expr is required for a transform step`},
		{"no operation, a prompt", "{id: t, type: transform, prompt: 'about {s}', output_var: o, depends_on: [src]}",
			"no operation: the input is the output", `step "t": expr is required`},
		{"an operation OCC lacks", "{id: t, type: transform, operation: uppercase, input_var: s, output_var: o, depends_on: [src]}",
			`unknown operation "uppercase": the input is the output`, `step "t": unknown operation "uppercase"`},
		{"a misspelt operation", "{id: t, type: transform, operation: jsonextract, input_var: s, output_var: o, depends_on: [src]}",
			`(did you mean json_extract?)`, `unknown operation "jsonextract"`},
		{"replace with an empty regex", "{id: t, type: transform, operation: replace, regex: '', template_str: x, input_var: s, output_var: o, depends_on: [src]}",
			"regex is empty: it matches everywhere and a replace leaves the text unchanged", `step "t": regex is empty: operation replace needs a pattern`},
		{"filter with an empty regex", "{id: t, type: transform, operation: filter, regex: '', input_var: s, output_var: o, depends_on: [src]}",
			"regex is empty", `step "t": regex is empty: operation filter needs a pattern`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			occAndOwn(t, "steps:\n"+occSource+"  - "+tc.step+"\n", tc.warning, tc.refusal)
		})
	}
}
