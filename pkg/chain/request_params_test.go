package chain

import "testing"

// TestParamsAreCheckedAtLoad: each parameter's type and range is checked
// where it is written.
func TestParamsAreCheckedAtLoad(t *testing.T) {
	step := func(params string) string {
		return "name: c\nsteps:\n  - id: a\n    model: openai/gpt-5\n    prompt: hi\n    " + params + "\n"
	}
	for _, tc := range []struct{ params, want string }{
		{"params: {seed: 1, top_p: 1, stop: [a, b], presence_penalty: -2, frequency_penalty: 2, reasoning_effort: minimal, max_output_tokens: 10, extra: {user: x}}", ""},
		{"params: {top_p: 1.5}", "c.yaml:6:5: step \"a\": params: top_p 1.5 is not between 0 and 1"},
		{"params: {presence_penalty: -3}", "presence_penalty -3 is not between -2 and 2"},
		{"params: {frequency_penalty: .nan}", "frequency_penalty NaN is not between -2 and 2"},
		{"params: {stop: [a, b, c, d, e]}", "stop has 5 sequences; providers take at most 4"},
		{"params: {stop: ['']}", "stop holds an empty sequence"},
		{"params: {reasoning_effort: extreme}", `reasoning_effort "extreme" is not one of`},
		{"params: {max_output_tokens: 0}", "max_output_tokens 0: want 1 or more"},
		{"params: {seed: lucky}", "seed"},
		{"params: {top_k: 5}", "top_k"},
		{"params: {extra: {messages: []}}", "extra.messages would replace what chainrun sends"},
		{"max_tokens: 100\n    params: {max_output_tokens: 10}", "set max_tokens or params.max_output_tokens, not both"},
		{"prompt_cache: sometimes", "prompt_cache"},
		{"temperature: 2", ""},
		{"temperature: 0", ""},
		{"temperature: 2.5", `c.yaml:6:5: step "a": temperature 2.5 is not between 0 and 2`},
		{"temperature: -0.1", "temperature -0.1 is not between 0 and 2"},
		{"temperature: .nan", "temperature NaN is not between 0 and 2"},
	} {
		t.Run(tc.params, func(t *testing.T) { expectLoad(t, step(tc.params), tc.want) })
	}
}
