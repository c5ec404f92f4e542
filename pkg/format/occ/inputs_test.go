package occ

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// OCC e3cf5fe mcp-server/tests/typed-inputs.test.ts, "Loader — typed
// input schema" and "Full chain — typed inputs end-to-end": inputs of
// every OCC type (enum, text, json, file, image besides string, number,
// boolean, url) with OCC's rules (pattern, min_length, max_length, min,
// max) and form hints (placeholder, examples, enum_labels, accepts,
// max_file_size) load; rules that cannot hold are refused, naming the
// input.
func TestOCCTypedInputsLoad(t *testing.T) {
	const full = `name: full-typed
inputs:
  - {name: topic, type: string, placeholder: "Research topic", min_length: 3, max_length: 200, examples: ["AI safety", "climate change"]}
  - {name: format, type: enum, enum: [markdown, html, pdf], enum_labels: {markdown: "Markdown (.md)"}, default: markdown}
  - {name: depth, type: number, min: 1, max: 10, default: "5"}
  - {name: verbose, type: boolean, default: "false"}
  - {name: source_url, type: url, optional: true}
  - {name: config, type: json, optional: true}
  - {name: banner, type: image, accepts: ["image/png", "image/jpeg"], max_file_size: 5242880, optional: true}
  - {name: data_file, type: file, accepts: [".csv", ".json"], optional: true}
  - {name: notes, type: text, max_length: 5000, optional: true}
  - {name: email, type: string, pattern: "^[^@]+@[^@]+[.][^@]+$", optional: true}
steps:
  - {id: research, type: transform, operation: template, template_str: "{input.topic} {input.depth}", output_var: result}
output: result
`
	for _, head := range []string{"", "version: \"1.0\"\n"} {
		l, err := Parse("c.yaml", []byte(head+full), chain.Options{})
		if err != nil {
			t.Fatalf("%q: %v", head, err)
		}
		if n := len(l.Chain.Inputs); n != 10 {
			t.Fatalf("%d inputs", n)
		}
	}
	for _, tc := range []struct{ input, want string }{
		{`{name: code, pattern: "([a-z"}`, `input "code": pattern: error parsing regexp`},
		{"{name: code, min_length: 5, max_length: 2}", `input "code": min_length 5 is more than max_length 2`},
		{"{name: age, type: number, min: 10, max: 1}", `input "age": min 10 is more than max 1`},
		{"{name: level, type: enum}", `input "level": type enum needs enum:`},
		{"{name: age, type: number, min: 18, default: '5'}", `input "age": default: 5 must be >= 18`},
		{"{name: kind, type: enumm}", `input "kind": type "enumm" (did you mean enum?)`},
	} {
		_, err := Parse("c.yaml", []byte("name: c\nversion: \"1.0\"\ninputs: ["+tc.input+"]\nsteps:\n  - {id: s, model: openai/m, prompt: x}\n"), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.input, err, tc.want)
		}
	}
}
