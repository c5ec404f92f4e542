package run

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// The cases below port OCC's pre_tool tests (lacausecrypto/OCC,
// mcp-server/tests/pretool-executor.test.ts at c591dab and b17e1ab,
// pretool-security.test.ts at a9f962a, pretools.test.ts at 1d2380b) and
// what 13d9853 mcp-server/src/pretool-executor.ts does, on a file read as
// OCC's: what each type injects, how a failure reads, caching, chaining
// and parallel groups. Each case names its describe and it.

// injected runs an OCC file whose one step injects its pre_tools and
// outputs the template out, and returns the run.
func injected(t *testing.T, preTools, out string, opts ...Option) *record.Result {
	t.Helper()
	return runChain(t, occHead+`steps:
  - id: s
    type: transform
    operation: template
    template_str: '`+out+`'
    pre_tools:
`+preTools+`    output_var: result
output: result
`, nil, opts...)
}

// OCC pretool-executor.test.ts ("current_datetime pre-tool", "env_var
// pre-tool", "bash pre-tool", "executePreTools orchestration") and
// pretool-security.test.ts ("current_datetime — format variants",
// "env_var — default values", "bash pre-tool — variable sanitization",
// "executePreTools — orchestration"): what each type injects.
func TestOCCPreToolInjects(t *testing.T) {
	env := map[string]string{"OCC_TEST_VAR": "test_value_123", "OCC_CHAIN_TEST": "chained_value", "PATH": os.Getenv("PATH")}
	cases := []struct {
		name, tools, out string
		want             *regexp.Regexp
	}{
		{"iso by default", "      - {type: current_datetime, inject_as: now}\n", "{now}", regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`)},
		{"unix", "      - {type: current_datetime, inject_as: now, format: unix}\n", "{now}", regexp.MustCompile(`^1\d{9}$`)},
		{"locale with a timezone", "      - {type: current_datetime, inject_as: now, format: locale, timezone: America/New_York}\n", "{now}", regexp.MustCompile(`^\w+day, \w+ \d{1,2}, \d{4} at .{8,}`)},
		{"env_var set", "      - {type: env_var, inject_as: val, var_name: OCC_TEST_VAR}\n", "{val}", regexp.MustCompile(`^test_value_123$`)},
		{"env_var missing is empty", "      - {type: env_var, inject_as: val, var_name: OCC_NONEXISTENT_VAR_12345}\n", "[{val}]", regexp.MustCompile(`^\[\]$`)},
		{"env_var missing, default_value", "      - {type: env_var, inject_as: val, var_name: OCC_NONEXISTENT_VAR_12345, default_value: fallback}\n", "{val}", regexp.MustCompile(`^fallback$`)},
		{"env_var set ignores default_value", "      - {type: env_var, inject_as: val, var_name: OCC_TEST_VAR, default_value: fallback}\n", "{val}", regexp.MustCompile(`^test_value_123$`)},
		{"bash", "      - {type: bash, inject_as: output, command: echo hello}\n", "{output}", regexp.MustCompile(`^hello$`)},
		{"bash stderr: true", "      - {type: bash, inject_as: output, command: 'echo err >&2; echo out', stderr: true}\n", "{output}", regexp.MustCompile(`(?s)out.*err`)},
		{"bash reads the one before", "      - {type: env_var, inject_as: val, var_name: OCC_CHAIN_TEST}\n      - {type: bash, inject_as: echo, command: 'echo {val}'}\n", "{val}/{echo}", regexp.MustCompile(`^chained_value/chained_value$`)},
		{"bash quotes a value", "      - {type: env_var, var_name: OCC_NONEXISTENT, default_value: hello, inject_as: greeting}\n      - {type: bash, command: \"echo '{greeting} world'\", inject_as: full}\n", "{full}", regexp.MustCompile(`^hello world$`)},
		{"bash keeps a value's metacharacters", "      - {type: env_var, var_name: OCC_NONEXISTENT, default_value: 'test$(whoami)', inject_as: v}\n      - {type: bash, command: \"printf '%s' '{v}'\", inject_as: full}\n", "{full}", regexp.MustCompile(`^test\$\(whoami\)$`)},
		{"parallel, then one after", "      - {type: current_datetime, format: unix, parallel: true, inject_as: ts1}\n      - {type: current_datetime, format: iso, parallel: true, inject_as: ts2}\n      - {type: bash, command: echo done, inject_as: final}\n", "{ts1}|{ts2}|{final}", regexp.MustCompile(`^1\d{9}\|\d{4}-.+\|done$`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := injected(t, tc.tools, tc.out, WithEnv(env))
			if out := outputText(res); res.Status != record.Succeeded || !tc.want.MatchString(out) {
				t.Fatalf("status %s output %q, want %s (err %s)", res.Status, out, tc.want, res.Error)
			}
		})
	}
}

// OCC pretool-executor.test.ts ("read_file pre-tool", "write_file
// pre-tool") and pretool-security.test.ts ("read_file — path traversal
// protection": "truncates large files to 50KB"): read_file gives the
// file's text, a path with {variables} too, and cuts a file over 50,000
// characters to 50,000 and "\n[truncated]" (in an OCC file); write_file
// writes (nested directories made, append) and gives the path.
func TestOCCPreToolFiles(t *testing.T) {
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "data.json"), []byte(`{"key":"value"}`), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("x", 60000)), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "append.txt"), []byte("first\n"), 0o644)
	env := map[string]string{"DIR": dir}
	res := injected(t, "      - {type: env_var, var_name: DIR, inject_as: dir}\n      - {type: read_file, inject_as: content, path: '{dir}/data.json'}\n", "{content}", WithEnv(env))
	if outputText(res) != `{"key":"value"}` {
		t.Fatalf("read_file: output %q (err %s)", outputText(res), res.Error)
	}
	res = injected(t, "      - {type: read_file, inject_as: content, path: '"+dir+"/big.txt'}\n", "{content}")
	if out := outputText(res); out != strings.Repeat("x", 50000)+"\n[truncated]" || !strings.Contains(strings.Join(res.Warnings, " "), "cut to 50000") {
		t.Fatalf("read_file of 60000 characters: %d characters, ends %q, warnings %q", len(out), out[max(0, len(out)-20):], res.Warnings)
	}
	nested := filepath.Join(dir, "nested", "dir", "file.txt")
	res = injected(t, "      - {type: env_var, var_name: OCC_NONEXISTENT, default_value: Alice, inject_as: name}\n      - {type: write_file, inject_as: file, path: '"+nested+"', content: 'Hello {name}!'}\n"+
		"      - {type: write_file, inject_as: more, path: '"+dir+"/append.txt', content: \"second\\n\", append: true}\n", "{file}")
	got, _ := os.ReadFile(nested)
	appended, _ := os.ReadFile(filepath.Join(dir, "append.txt"))
	if outputText(res) != nested || string(got) != "Hello Alice!" || string(appended) != "first\nsecond\n" {
		t.Fatalf("write_file: output %q, file %q, appended %q (err %s)", outputText(res), got, appended, res.Error)
	}
	// chainrun's own format injects the whole file
	own := runChain(t, "name: t\nsteps:\n  - {id: s, type: transform, operation: template, template_str: '{c}', pre_tools: [{type: read_file, inject_as: c, path: '"+dir+"/big.txt'}], output_var: r}\noutput: r\n", nil)
	if len(outputText(own)) != 60000 {
		t.Fatalf("own format: read_file gave %d characters, want the whole 60000", len(outputText(own)))
	}
}

// OCC pretool-executor.test.ts ("executePreToolWithRetry") and
// pretool-security.test.ts ("executePreToolWithRetry — error handling
// modes"): a read_file of a missing file injects "[PRE-TOOL ERROR: …]"
// by default (OCC's text; chainrun's own format writes "error: …"),
// "" with on_error: skip, and fails the step with on_error: fail; a
// web_search without a search provider, and an http_fetch of a file://
// or ftp:// URL, inject their error.
func TestOCCPreToolFailures(t *testing.T) {
	cases := []struct {
		name, tool string
		want       *regexp.Regexp
		fails      bool
	}{
		{"inject by default", "{type: read_file, inject_as: v, path: /nonexistent/path/file.txt}", regexp.MustCompile(`^\[PRE-TOOL ERROR: .*file\.txt.*\]$`), false},
		{"skip", "{type: read_file, inject_as: v, path: /nonexistent/path/file.txt, on_error: skip}", regexp.MustCompile(`^$`), false},
		{"fail", "{type: read_file, inject_as: v, path: /nonexistent/path/file.txt, on_error: fail}", nil, true},
		{"web_search without a provider", "{type: web_search, inject_as: v, query: test}", regexp.MustCompile(`^\[PRE-TOOL ERROR: .*search`), false},
		{"http_fetch of file://", "{type: http_fetch, inject_as: v, url: 'file:///etc/passwd'}", regexp.MustCompile(`^\[PRE-TOOL ERROR: `), false},
		{"http_fetch of ftp://", "{type: http_fetch, inject_as: v, url: 'ftp://server/file'}", regexp.MustCompile(`^\[PRE-TOOL ERROR: `), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := injected(t, "      - "+tc.tool+"\n", "{v}")
			if tc.fails {
				if res.Status != record.Failed || !strings.Contains(step(t, res, "s").Error, "pre_tool v (read_file)") {
					t.Fatalf("status %s, error %q: on_error: fail must fail the step naming the pre_tool", res.Status, step(t, res, "s").Error)
				}
				return
			}
			if out := outputText(res); res.Status != record.Succeeded || !tc.want.MatchString(out) {
				t.Fatalf("status %s output %q, want %s (err %s)", res.Status, out, tc.want, res.Error)
			}
		})
	}
	own := runChain(t, "name: t\nsteps:\n  - {id: s, type: transform, operation: template, template_str: '{v}', pre_tools: [{type: read_file, inject_as: v, path: /nonexistent/x}], output_var: r}\noutput: r\n", nil)
	if !strings.HasPrefix(outputText(own), "error: ") {
		t.Fatalf("own format injects %q, want chainrun's \"error: …\"", outputText(own))
	}
}

// OCC pretool-security.test.ts ("http_fetch — response handling",
// "pre-tool caching") and pretools.test.ts ("http_fetch advanced
// schema"): headers and body are filled in; GET and DELETE send no body;
// json_path data.items[0].name picks "Alice"; a response over 50,000
// characters is cut with "[truncated]"; cache_ttl_minutes: 60 fetches
// once for two steps, 0 fetches each time.
func TestOCCPreToolHTTPFetch(t *testing.T) {
	var calls atomic.Int32
	var method, auth, body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		b, _ := io.ReadAll(r.Body)
		method, auth, body = r.Method, r.Header.Get("Authorization"), string(b)
		switch r.URL.Path {
		case "/large":
			_, _ = w.Write([]byte(strings.Repeat("x", 60000)))
		case "/api":
			_, _ = w.Write([]byte(`{"data": {"items": [{"name": "Alice"}, {"name": "Bob"}]}}`))
		default:
			_, _ = w.Write([]byte("call_" + strconv.Itoa(int(n))))
		}
	}))
	defer srv.Close()
	env := map[string]string{"BEARER_VALUE": "abc123"}
	res := injected(t, "      - {type: env_var, var_name: BEARER_VALUE, inject_as: token}\n      - {type: http_fetch, inject_as: v, url: '"+srv.URL+"/post', method: POST, headers: {Authorization: 'Bearer {token}'}, body: '{\"q\": \"test\"}'}\n", "{v}", WithEnv(env))
	if res.Status != record.Succeeded || method != "POST" || auth != "Bearer abc123" || body != `{"q": "test"}` {
		t.Fatalf("POST: status %s, sent %s %q %q (err %s)", res.Status, method, auth, body, res.Error)
	}
	for _, m := range []string{"GET", "DELETE"} {
		res = injected(t, "      - {type: http_fetch, inject_as: v, url: '"+srv.URL+"/x', method: "+m+", body: '{\"ignored\": true}'}\n", "{v}")
		if res.Status != record.Succeeded || method != m || body != "" {
			t.Fatalf("%s: status %s, sent %s with body %q (err %s)", m, res.Status, method, body, res.Error)
		}
	}
	if res = injected(t, "      - {type: http_fetch, inject_as: v, url: '"+srv.URL+"/api', json_path: 'data.items[0].name'}\n", "{v}"); outputText(res) != "Alice" {
		t.Fatalf("json_path: output %q (err %s)", outputText(res), res.Error)
	}
	res = injected(t, "      - {type: http_fetch, inject_as: v, url: '"+srv.URL+"/large'}\n", "{v}")
	if out := outputText(res); len(out) != 50000+len("\n[truncated]") || !strings.HasSuffix(out, "\n[truncated]") {
		t.Fatalf("large: %d characters (err %s)", len(out), res.Error)
	}
	twice := func(ttl string) (string, int32) {
		calls.Store(0)
		r := runChain(t, occHead+`steps:
  - {id: a, type: transform, operation: template, template_str: '{v}', pre_tools: [{type: http_fetch, inject_as: v, url: '`+srv.URL+`/cached', cache_ttl_minutes: `+ttl+`}], output_var: first}
  - {id: b, type: transform, operation: template, template_str: '{first} {v}', depends_on: [a], pre_tools: [{type: http_fetch, inject_as: v, url: '`+srv.URL+`/cached', cache_ttl_minutes: `+ttl+`}], output_var: result}
output: result
`, nil)
		return outputText(r), calls.Load()
	}
	if out, n := twice("60"); out != "call_1 call_1" || n != 1 {
		t.Fatalf("cache_ttl_minutes 60: output %q after %d requests", out, n)
	}
	if out, n := twice("0"); out != "call_1 call_2" || n != 2 {
		t.Fatalf("cache_ttl_minutes 0: output %q after %d requests", out, n)
	}
}

// OCC pretool-executor.test.ts ("mcp_call pre-tool", "db_query
// pre-tool", "email pre-tool", "ocr pre-tool", "pdf_generate pre-tool")
// and pretool-executor-extended.test.ts (state, vectors, json_parse,
// cost_gate, embed_compare, graph_query, template_render,
// approval_request, semantic_cache): OCC runs them against its own
// stores and services; chainrun has none of these types and refuses the
// file when it loads, naming the type.
func TestOCCPreToolTypesChainrunLacks(t *testing.T) {
	for _, tool := range []string{
		"{type: mcp_call, inject_as: data, server: nonexistent, tool: test_tool, args: {}}",
		"{type: db_query, inject_as: data, connection: '', sql: ''}",
		"{type: email, inject_as: data, to: '', subject: ''}",
		"{type: ocr, inject_as: data}",
		"{type: pdf_generate, inject_as: data}",
		// pretool-executor-extended.test.ts (b17e1ab): Tier 1-3 types
		"{type: state_save, inject_as: data, key: test_key, value: test_val, scope: test}",
		"{type: state_load, inject_as: data, key: test_key, scope: test, default: '(none)'}",
		"{type: vector_index, inject_as: data, collection: docs, source: text}",
		"{type: vector_query, inject_as: data, collection: docs, query: fox}",
		"{type: json_parse, inject_as: data, input: '{}', json_path: a}",
		"{type: cost_gate, inject_as: data, budget_usd: 10}",
		"{type: embed_compare, inject_as: data, text_a: a, text_b: b}",
		"{type: graph_query, inject_as: data}",
		"{type: template_render, inject_as: data, template: x}",
		"{type: approval_request, inject_as: data, title: t}",
		"{type: semantic_cache, inject_as: data, query: q}",
	} {
		typ := strings.TrimSuffix(strings.Fields(tool)[1], ",")
		_, err := chain.Parse("occ.yaml", []byte(occHead+"steps:\n  - {id: s, model: openai/m, prompt: '{data}', output_var: r, pre_tools: ["+tool+"]}\noutput: r\n"), chain.Options{})
		if err == nil || !strings.Contains(err.Error(), `unknown pre_tool type "`+typ+`"`) {
			t.Errorf("%s: err %v, want it named", typ, err)
		}
	}
}

// OCC 13d9853 mcp-server/src/executor.ts's webhook ("if (method !== GET
// && method !== DELETE)" builds the body) and pretools.test.ts's linter
// case "warns on body with GET method": in an OCC file a webhook's and an
// http_fetch's body is not sent with GET or DELETE (a warning says so);
// chainrun's own format sends what the file writes.
func TestOCCNoBodyWithGetOrDelete(t *testing.T) {
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, r.Method+":"+string(b))
	}))
	defer srv.Close()
	for _, m := range []string{"GET", "DELETE"} {
		bodies = nil
		res := runChain(t, occHead+`steps:
  - {id: hook, type: webhook, webhook_url: '`+srv.URL+`', webhook_method: `+m+`, webhook_body: '{"x": 1}', output_var: r}
  - {id: s, depends_on: [hook], type: transform, operation: template, template_str: '{v}', pre_tools: [{type: http_fetch, inject_as: v, url: '`+srv.URL+`', method: `+m+`, body: 'y'}], output_var: result}
output: result
`, nil)
		if res.Status != record.Succeeded || len(bodies) != 2 || bodies[0] != m+":" || bodies[1] != m+":" {
			t.Fatalf("%s: status %s, received %q (err %s)", m, res.Status, bodies, res.Error)
		}
	}
	bodies = nil
	res := runChain(t, "name: t\nsteps:\n  - {id: s, type: transform, operation: template, template_str: '{v}', pre_tools: [{type: http_fetch, inject_as: v, url: '"+srv.URL+"', body: 'y'}], output_var: result}\noutput: result\n", nil)
	if res.Status != record.Succeeded || len(bodies) != 1 || bodies[0] != "GET:y" {
		t.Fatalf("own format: status %s, received %q", res.Status, bodies)
	}
}

// OCC b17e1ab pretool-executor-extended.test.ts, "ast_parse via
// executor": "extracts functions from a file" — both the exported and
// the unexported function of a TypeScript file are listed.
func TestOCCPreToolASTParse(t *testing.T) {
	ts := filepath.Join(t.TempDir(), "test.ts")
	_ = os.WriteFile(ts, []byte("export function hello() {}\nfunction world() {}"), 0o644)
	res := injected(t, "      - {type: ast_parse, inject_as: ast, path: '"+ts+"', extract: [functions]}\n", "{ast}")
	if out := outputText(res); res.Status != record.Succeeded || !strings.Contains(out, "hello") || !strings.Contains(out, "world") {
		t.Fatalf("status %s output %q (err %s)", res.Status, out, res.Error)
	}
}

// OCC 53e3082 mcp-server/tests/pretools-new.test.ts, "read_file /
// write_file improvements" ("accepts encoding field on read_file"), and
// pretool-security.test.ts ("uses specified encoding"): read_file and
// write_file take OCC's encoding (Node's names): latin1 reads each byte
// as one character, base64 and hex give the bytes so written, and
// write_file writes the content back in the same encoding; an encoding
// OCC lacks is refused at load.
func TestOCCPreToolFileEncoding(t *testing.T) {
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "latin.txt"), []byte{'c', 'a', 'f', 0xe9}, 0o644)
	cases := []struct{ encoding, want string }{
		{"latin1", "café"},
		{"utf-8", "caf\xe9"},
		{"base64", "Y2Fm6Q=="},
		{"hex", "636166e9"},
	}
	for _, tc := range cases {
		res := injected(t, "      - {type: read_file, inject_as: v, path: '"+dir+"/latin.txt', encoding: "+tc.encoding+"}\n", "{v}")
		if outputText(res) != tc.want {
			t.Errorf("read as %s: %q, want %q (err %s)", tc.encoding, outputText(res), tc.want, res.Error)
		}
	}
	for _, tc := range []struct{ encoding, content string }{{"latin1", "café"}, {"base64", "Y2Fm6Q=="}, {"hex", "636166e9"}} {
		out := filepath.Join(dir, "out-"+tc.encoding)
		res := injected(t, "      - {type: write_file, inject_as: v, path: '"+out+"', content: '"+tc.content+"', encoding: "+tc.encoding+"}\n", "{v}")
		got, _ := os.ReadFile(out)
		if res.Status != record.Succeeded || string(got) != "caf\xe9" {
			t.Errorf("written as %s: %q (err %s)", tc.encoding, got, res.Error)
		}
	}
	_, err := chain.Parse("occ.yaml", []byte(occHead+"steps:\n  - {id: s, model: openai/m, prompt: '{v}', pre_tools: [{type: read_file, inject_as: v, path: x, encoding: utf-16}]}\n"), chain.Options{})
	if err == nil || !strings.Contains(err.Error(), `encoding "utf-16"`) {
		t.Fatalf("err %v, want the encoding named", err)
	}
}

// OCC c591dab mcp-server/src/pretool-executor.ts, env_var (also at
// 13d9853 and a9f962a): a name that matches ENV_VAR_BLOCKED_PATTERNS
// (KEY, TOKEN, SECRET, … GITHUB_, CI_, PATH) is not read — "access
// blocked", the value is default_value — so an OCC file's env_var of
// GITHUB_TOKEN, CI_JOB_TOKEN or PATH injects its default_value, never the
// variable, with a warning when the file loads.
func TestOCCEnvVarOCCWillNotRead(t *testing.T) {
	env := map[string]string{"GITHUB_TOKEN": "ghp_secret", "CI_JOB_TOKEN": "cijob", "PATH": "/usr/bin", "MY_APP_NAME": "app"}
	res := injected(t, "      - {type: env_var, var_name: GITHUB_TOKEN, default_value: none, inject_as: a}\n"+
		"      - {type: env_var, var_name: CI_JOB_TOKEN, inject_as: b}\n"+
		"      - {type: env_var, var_name: PATH, default_value: '/bin', inject_as: c}\n"+
		"      - {type: env_var, var_name: MY_APP_NAME, inject_as: d}\n", "{a}|{b}|{c}|{d}", WithEnv(env))
	if res.Status != record.Succeeded || outputText(res) != "none||/bin|app" {
		t.Fatalf("status %s output %q (err %s)", res.Status, outputText(res), res.Error)
	}
}

// OCC c591dab mcp-server/src/pretool-executor.ts, current_datetime:
// iso is new Date().toISOString() (UTC, milliseconds, Z, whatever the
// timezone) and locale is toLocaleString("en-US", {timeZone, dateStyle:
// "full", timeStyle: "medium"}); pretool-executor.test.ts ("returns ISO
// format by default", "respects timezone parameter") pins their shape.
// chainrun's own format writes RFC 3339 in the zone and a 24-hour clock
// with the zone's name.
func TestOCCCurrentDatetimeFormats(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 123e6, time.UTC)
	clock := WithClock(func() time.Time { return at })
	cases := []struct{ tool, occ, own string }{
		{"{type: current_datetime, inject_as: v}", "2026-03-04T05:06:07.123Z", "2026-03-04T05:06:07Z"},
		{"{type: current_datetime, inject_as: v, timezone: Europe/Paris}", "2026-03-04T05:06:07.123Z", "2026-03-04T06:06:07+01:00"},
		{"{type: current_datetime, inject_as: v, format: locale, timezone: America/New_York}", "Wednesday, March 4, 2026 at 12:06:07 AM", "Wednesday, March 4, 2026 at 00:06:07 EST"},
		{"{type: current_datetime, inject_as: v, format: locale}", "Wednesday, March 4, 2026 at 5:06:07 AM", "Wednesday, March 4, 2026 at 05:06:07 UTC"},
		{"{type: current_datetime, inject_as: v, format: unix}", "1772600767", "1772600767"},
	}
	for _, tc := range cases {
		if res := injected(t, "      - "+tc.tool+"\n", "{v}", clock); outputText(res) != tc.occ {
			t.Errorf("OCC file, %s: %q, want %q (err %s)", tc.tool, outputText(res), tc.occ, res.Error)
		}
		own := runChain(t, "name: t\nsteps:\n  - {id: s, type: transform, operation: template, template_str: '{v}', pre_tools: ["+tc.tool+"], output_var: r}\noutput: r\n", nil, clock)
		if outputText(own) != tc.own {
			t.Errorf("own format, %s: %q, want %q", tc.tool, outputText(own), tc.own)
		}
	}
}

// OCC a9f962a mcp-server/tests/pretool-security.test.ts, "http_fetch —
// response handling": "logs warning when json_path extraction fails" —
// a response that is not JSON is injected whole, with a warning (OCC's
// executor keeps it); chainrun's own format fails the pre_tool, which
// then fails its step (on_error: fail, an http pre_tool's default).
func TestOCCHTTPFetchJSONPathOfText(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("not json")) }))
	defer srv.Close()
	res := injected(t, "      - {type: http_fetch, inject_as: v, url: '"+srv.URL+"', json_path: data.field}\n", "{v}")
	if res.Status != record.Succeeded || outputText(res) != "not json" || !strings.Contains(strings.Join(res.Warnings, " "), "json_path data.field") {
		t.Fatalf("status %s output %q warnings %q (err %s)", res.Status, outputText(res), res.Warnings, res.Error)
	}
	own := runChain(t, "name: t\nsteps:\n  - {id: s, type: transform, operation: template, template_str: '{v}', pre_tools: [{type: http, inject_as: v, url: '"+srv.URL+"', json_path: data.field}], output_var: r}\noutput: r\n", nil)
	if own.Status != record.Failed || !strings.Contains(step(t, own, "s").Error, "not JSON") {
		t.Fatalf("own format: status %s error %q", own.Status, step(t, own, "s").Error)
	}
}
