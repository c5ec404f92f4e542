package occ

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// OCC 1d2380b mcp-server/tests/pretools.test.ts ("http_fetch advanced
// schema", "Pre-tool timeout and retry", "Pre-tool caching", "Parallel
// pre-tools", "Pre-tool chaining", "Full pre-tool chain examples") and
// 53e3082 pretools-new.test.ts (current_datetime, read_file encoding,
// write_file append, bash stderr, env_var default_value, "Full chain with
// new pre-tools"): OCC's example chains load in a file read as OCC's,
// and the linter cases hold: a body with GET is ignored with a warning,
// a {token} injected by the pre_tool before is known.
func TestOCCPreToolChainsLoad(t *testing.T) {
	cases := []struct{ name, tools, warning string }{
		{"method, headers, body", `{type: http_fetch, url: "https://api.example.com/data", method: POST, headers: {Authorization: "Bearer token123", Content-Type: "application/json"}, body: '{"query": "test"}', inject_as: api_data}`, ""},
		{"json_path", `{type: http_fetch, url: "https://api.example.com/users", json_path: "data.items[0].name", inject_as: api_data}`, ""},
		{"PUT", `{type: http_fetch, url: "https://example.com", method: PUT, inject_as: api_data}`, ""},
		{"PATCH", `{type: http_fetch, url: "https://example.com", method: PATCH, inject_as: api_data}`, ""},
		{"DELETE", `{type: http_fetch, url: "https://example.com", method: DELETE, inject_as: api_data}`, ""},
		{"timeout_ms, retry, on_error", `{type: http_fetch, url: "https://api.example.com", timeout_ms: 5000, retry: 3, on_error: fail, inject_as: api_data}`, ""},
		{"cache_ttl_minutes", `{type: http_fetch, url: "https://api.example.com/expensive", cache_ttl_minutes: 60, inject_as: api_data}`, ""},
		{"parallel", "{type: http_fetch, url: \"https://api1.example.com\", parallel: true, inject_as: data1}\n      - {type: http_fetch, url: \"https://api2.example.com\", parallel: true, inject_as: api_data}", ""},
		{"chaining: a header reads the token before", "{type: env_var, var_name: API_TOKEN, inject_as: token}\n      - {type: http_fetch, url: \"https://api.example.com/data\", headers: {Authorization: \"Bearer {token}\"}, inject_as: api_data}", "API_TOKEN"},
		{"body with GET", `{type: http_fetch, url: "https://example.com", method: GET, body: '{"data": "test"}', inject_as: api_data}`, "body ignored with GET"},
		{"datetime timezone and locale", `{type: current_datetime, timezone: "America/New_York", format: locale, inject_as: api_data}`, ""},
		{"read_file encoding", `{type: read_file, path: "/tmp/test.txt", encoding: latin1, inject_as: api_data}`, ""},
		{"write_file append", `{type: write_file, path: "/tmp/log.txt", content: "new line", append: true, inject_as: api_data}`, ""},
		{"bash stderr", `{type: bash, command: "ls /nonexistent 2>&1", stderr: true, inject_as: api_data}`, ""},
		{"env_var default_value", `{type: env_var, var_name: PROBABLY_NOT_SET, default_value: "fallback_value", inject_as: api_data}`, ""},
		{"full example", "{type: current_datetime, timezone: Europe/Paris, format: locale, inject_as: now}\n      - {type: env_var, var_name: API_KEY, default_value: demo_key, inject_as: key}\n" +
			`      - {type: http_fetch, url: "https://api.example.com/search", method: POST, headers: {Authorization: "Bearer {key}"}, body: '{"q": "{input.query}"}', json_path: results, timeout_ms: 10000, retry: 2, cache_ttl_minutes: 30, inject_as: api_data}`, "API_KEY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "name: c\nversion: \"1.0\"\ninputs: [{name: query, optional: true}]\nsteps:\n  - id: s1\n    model: openai/m\n    pre_tools:\n      - " + tc.tools + "\n    prompt: \"{api_data}\"\n    output_var: result\noutput: result\n"
			l, err := Parse("c.yaml", []byte(src), chain.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var warnings []string
			for _, w := range l.Warnings {
				warnings = append(warnings, w.Message)
			}
			if tc.warning != "" && !strings.Contains(strings.Join(warnings, "\n"), tc.warning) {
				t.Errorf("no warning %q in %q", tc.warning, warnings)
			}
		})
	}
}

// OCC 48a4d08 mcp-server/tests/webhook.test.ts, "Webhook schema
// validation": a webhook with every optional field loads, each of OCC's
// own spellings read with a note (webhook_retry: 3 is three retries after
// the first attempt: four in all); every method loads; an invalid one
// and a missing url are refused, naming the step.
func TestOCCWebhookFieldsLoad(t *testing.T) {
	full := `name: webhook-full
steps:
  - id: notify
    type: webhook
    webhook_url: "https://example.com/hook"
    webhook_method: PUT
    webhook_headers: {Authorization: "Bearer token123", X-Custom: "value"}
    webhook_body: '{"message": "hello"}'
    webhook_timeout_ms: 5000
    webhook_retry: 3
    webhook_success_status: [200, 201, 202]
    prompt: "Send"
    output_var: response
output: response
`
	l, err := Parse("wh.yaml", []byte(full), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := l.Chain.Steps[0]
	if s.HTTP().Method != "PUT" || s.TimeoutMS != 5000 || s.Retry == nil || s.Retry.Max != 4 || len(s.Success().SuccessStatus) != 3 || s.HTTP().Headers["X-Custom"] != "value" {
		t.Fatalf("method %s timeout %d retry %+v success %v headers %v", s.HTTP().Method, s.TimeoutMS, s.Retry, s.Success().SuccessStatus, s.HTTP().Headers)
	}
	notes := 0
	for _, w := range l.Warnings {
		if strings.Contains(w.Message, "is OCC's own spelling") {
			notes++
		}
	}
	if notes != 7 {
		t.Errorf("%d notes of OCC's spellings, want 7: %v", notes, l.Warnings)
	}
	for _, m := range []string{"POST", "PUT", "PATCH", "GET", "DELETE"} {
		if _, err := Parse("wh.yaml", []byte("name: w\nsteps:\n  - {id: s1, type: webhook, webhook_url: 'https://example.com', webhook_method: "+m+", prompt: X, output_var: r}\noutput: r\n"), chain.Options{}); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
	for _, tc := range []struct{ fields, want string }{
		{"webhook_url: 'https://example.com', webhook_method: INVALID", `step "s1": a webhook's method is POST, PUT, PATCH, GET or DELETE, not "INVALID"`},
		{"webhook_url: 'https://example.com', webhook_retry: -1", "webhook_retry: the retries after the first attempt"},
		{"prompt: X", `step "s1": url is required for a webhook step`},
	} {
		_, err := Parse("wh.yaml", []byte("name: w\nsteps:\n  - {id: s1, type: webhook, "+tc.fields+", output_var: r}\noutput: r\n"), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.fields, err, tc.want)
		}
	}
}
