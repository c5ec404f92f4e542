package run

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// preToolStep is a chain whose one step prints what its pre_tools
// injected as x.
func preToolStep(pre string) string {
	return "name: t\ninputs: [{name: q, optional: true}]\nsteps:\n  - id: s\n    type: shell\n    pre_tools:\n" + pre + "    run: 'printf %s \"{x}\"'\n    output_var: out\noutput: out\n"
}

func runIn(t *testing.T, dir, src string, inputs map[string]string, opts ...Option) *record.Result {
	t.Helper()
	opts = append([]Option{WithDir(dir), func(l *Local) { l.preToolDelay = 0 }}, opts...)
	res, err := New(opts...).Run(context.Background(), Request{Chain: load(t, src), Inputs: inputs})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// TestOCCPreTools: what each of OCC's pre_tool types injects.
func TestOCCPreTools(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			body := new(strings.Builder)
			_, _ = io.Copy(body, r.Body)
			_, _ = fmt.Fprintf(w, `{"echo": %q}`, r.Header.Get("X-Q")+"-"+body.String())
			return
		}
		_, _ = w.Write([]byte(`{"data": {"items": [{"name": "first"}, {"name": "second"}]}}`))
	}))
	defer api.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("hello notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHAINRUN_TEST_COLOUR", "blue")
	fixed := func(l *Local) { l.Now = func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) } }
	cases := []struct {
		name, pre, want string
	}{
		{"datetime iso", "      - {type: current_datetime, inject_as: x}\n", "2026-03-04T05:06:07Z"},
		{"datetime zone", "      - {type: current_datetime, timezone: Europe/Paris, inject_as: x}\n", "2026-03-04T06:06:07+01:00"},
		{"datetime unix", "      - {type: current_datetime, format: unix, inject_as: x}\n", "1772600767"},
		{"datetime date", "      - {type: current_datetime, format: date, inject_as: x}\n", "2026-03-04"},
		{"datetime locale", "      - {type: current_datetime, format: locale, inject_as: x}\n", "Wednesday, March 4, 2026 at 05:06:07 UTC"},
		{"env_var", "      - {type: env_var, var_name: CHAINRUN_TEST_COLOUR, inject_as: x}\n", "blue"},
		{"env_var default", "      - {type: env_var, var_name: CHAINRUN_TEST_UNSET, default_value: none, inject_as: x}\n", "none"},
		{"read_file", "      - {type: read_file, path: notes.md, inject_as: x}\n", "hello notes"},
		{"http_fetch json_path", "      - {type: http_fetch, url: '" + api.URL + "/{input.q}', json_path: 'data.items[1].name', inject_as: x}\n", "second"},
		{"http_fetch post", "      - {type: http_fetch, url: '" + api.URL + "', method: POST, headers: {X-Q: '{input.q}'}, body: 'b{input.q}', json_path: echo, inject_as: x}\n", "v-bv"},
		{"bash", "      - {type: bash, command: \"echo '{input.q}'; echo oops >&2\", inject_as: x}\n", "v"},
		{"bash stderr", "      - {type: bash, command: \"echo '{input.q}'; echo oops >&2\", stderr: true, inject_as: x}\n", "v\n[stderr]\noops"},
		{"chained", "      - {type: current_datetime, format: date, inject_as: d}\n      - {type: bash, command: 'echo day {d}', inject_as: x}\n", "day 2026-03-04"},
		{"failure injected", "      - {type: bash, command: 'echo no >&2; exit 3', inject_as: x}\n", "error: exited with code 3: no"},
		{"failure skipped", "      - {type: http_fetch, url: 'http://127.0.0.1:1/', on_error: skip, inject_as: x}\n", ""},
		{"json_path missing", "      - {type: http_fetch, url: '" + api.URL + "', json_path: data.nope, inject_as: x}\n", `error: json_path data.nope: no field "nope"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runIn(t, dir, preToolStep(tc.pre), map[string]string{"q": "v"}, fixed)
			if res.Status != record.Succeeded {
				t.Fatalf("status %s: %s", res.Status, res.Error)
			}
			if res.Output != tc.want {
				t.Errorf("x = %q, want %q", res.Output, tc.want)
			}
		})
	}
}

// TestPreToolFailModes: shell, http and file keep failing the step by
// default; OCC's types do with on_error: fail; a pre_tool's own
// timeout_ms bounds it.
func TestPreToolFailModes(t *testing.T) {
	cases := []struct{ name, pre, want string }{
		{"shell fails by default", "      - {type: shell, run: 'exit 3', inject_as: x}\n", "pre_tool x (shell): exited with code 3"},
		{"bash on_error fail", "      - {type: bash, command: 'exit 4', on_error: fail, inject_as: x}\n", "pre_tool x (bash): exited with code 4"},
		{"own timeout", "      - {type: bash, command: 'sleep 5', timeout_ms: 50, on_error: fail, inject_as: x}\n", "pre_tool x (bash): timed out after 50ms (its timeout_ms)"},
		{"no search provider", "      - {type: web_search, query: q, on_error: fail, inject_as: x}\n", "pre_tool x (web_search): web_search has no search provider: set search_url in the config (or CHAINRUN_SEARCH_URL), and CHAINRUN_SEARCH_API_KEY if it needs a key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runIn(t, t.TempDir(), preToolStep(tc.pre), nil)
			if res.Status != record.Failed || !strings.Contains(res.Error, tc.want) {
				t.Errorf("status %s error %q, want failed with %q", res.Status, res.Error, tc.want)
			}
		})
	}
}

// TestWriteFile: write_file writes its content under the step's
// directory, making directories, and gives the path; append adds.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	src := preToolStep("      - {type: write_file, path: 'out/{input.q}.txt', content: 'one-{input.q}', inject_as: w}\n" +
		"      - {type: write_file, path: 'out/{input.q}.txt', content: ' two', append: true, inject_as: x}\n")
	res := runIn(t, dir, src, map[string]string{"q": "v"})
	want := filepath.Join(dir, "out", "v.txt")
	if res.Status != record.Succeeded || res.Output != want {
		t.Fatalf("status %s output %q error %s", res.Status, res.Output, res.Error)
	}
	if b, _ := os.ReadFile(want); string(b) != "one-v two" {
		t.Errorf("file holds %q", b)
	}
}

// TestWriteFileRefusesAFIFOAtOnce: write_file to a FIFO nobody reads (or
// a device, or a directory) is refused at once, never an open that waits
// for a reader no timeout or interrupt could end.
func TestWriteFileRefusesAFIFOAtOnce(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"pipe":      "pipe is a FIFO (named pipe), not a regular file",
		"/dev/null": "/dev/null is a device, not a regular file",
		"sub":       "is a directory",
	} {
		for _, appending := range []string{"false", "true"} {
			done := make(chan *record.Result, 1)
			go func() {
				done <- runIn(t, dir, preToolStep("      - {type: write_file, path: '"+path+"', content: 'x', append: "+appending+", inject_as: x}\n"), nil)
			}()
			select {
			case res := <-done:
				if !strings.Contains(fmt.Sprint(res.Output)+res.Error, want) {
					t.Errorf("%s (append %s): status %s output %q error %q, want %q", path, appending, res.Status, res.Output, res.Error, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: write_file blocked", path)
			}
		}
	}
}

// TestWebSearch: web_search asks the configured provider over HTTP and
// lists its results, whatever common shape they come in.
func TestWebSearch(t *testing.T) {
	var got struct {
		sync.Mutex
		query, auth, token string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Lock()
		got.query, got.auth, got.token = r.URL.Query().Get("q")+r.URL.Query().Get("search"), r.Header.Get("Authorization"), r.Header.Get("X-Subscription-Token")
		got.Unlock()
		switch r.URL.Path {
		case "/brave":
			_, _ = w.Write([]byte(`{"web": {"results": [{"title": "B", "url": "https://b.example", "description": "about  b"}]}}`))
		case "/text":
			_, _ = w.Write([]byte("plain answer"))
		case "/down":
			w.WriteHeader(503)
		default:
			_, _ = w.Write([]byte(`{"results": [{"title": "One", "url": "https://one.example", "content": "first\nresult"}, {"title": "Two", "link": "https://two.example", "snippet": "second"}]}`))
		}
	}))
	defer srv.Close()
	cases := []struct {
		name   string
		search web.Provider
		want   string
		query  string
		auth   string
		token  string
	}{
		{"searxng shape with a key", web.Provider{URL: srv.URL + "/search?format=json", Key: "k1"},
			"1. One\n   https://one.example\n   first result\n\n2. Two\n   https://two.example\n   second", "AI news v", "Bearer k1", ""},
		{"brave shape, key header", web.Provider{URL: srv.URL + "/brave", Key: "k2", KeyHeader: "X-Subscription-Token"},
			"1. B\n   https://b.example\n   about b", "AI news v", "", "k2"},
		{"query placeholder", web.Provider{URL: srv.URL + "/text?search={query}"}, "plain answer", "AI news v", "", ""},
		{"provider down", web.Provider{URL: srv.URL + "/down"}, "error: web search at " + srv.URL + "/down: HTTP 503", "AI news v", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runIn(t, t.TempDir(), preToolStep("      - {type: web_search, query: 'AI news {input.q}', inject_as: x}\n"), map[string]string{"q": "v"}, WithSearch(tc.search))
			if res.Status != record.Succeeded || res.Output != tc.want {
				t.Fatalf("status %s output %q error %s; want %q", res.Status, res.Output, res.Error, tc.want)
			}
			got.Lock()
			defer got.Unlock()
			if got.query != tc.query || got.auth != tc.auth || got.token != tc.token {
				t.Errorf("provider got q=%q Authorization=%q token=%q", got.query, got.auth, got.token)
			}
		})
	}
}

// TestPreToolRetryAndCache: retry tries a failing pre_tool again;
// cache_ttl_minutes shares one result between the steps that make the
// same call.
func TestPreToolRetryAndCache(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := calls.Add(1); n == 1 && r.URL.Path == "/flaky" {
			w.WriteHeader(500)
			return
		}
		_, _ = w.Write([]byte("page " + r.URL.Path))
	}))
	defer srv.Close()
	t.Run("retry", func(t *testing.T) {
		calls.Store(0)
		res := runIn(t, t.TempDir(), preToolStep("      - {type: http_fetch, url: '"+srv.URL+"/flaky', retry: 1, on_error: fail, inject_as: x}\n"), nil)
		if res.Status != record.Succeeded || res.Output != "page /flaky" || calls.Load() != 2 {
			t.Errorf("status %s output %q calls %d", res.Status, res.Output, calls.Load())
		}
	})
	t.Run("cache", func(t *testing.T) {
		calls.Store(0)
		src := `
name: t
steps:
  - id: a
    type: shell
    pre_tools: [{type: http_fetch, url: '` + srv.URL + `/p', cache_ttl_minutes: 5, inject_as: x}]
    run: 'printf %s "{x}"'
  - id: b
    type: shell
    depends_on: [a]
    pre_tools: [{type: http_fetch, url: '` + srv.URL + `/p', cache_ttl_minutes: 5, inject_as: x}]
    run: 'printf %s "{x}"'
    output_var: out
output: out
`
		res := runIn(t, t.TempDir(), src, nil)
		if res.Status != record.Succeeded || res.Output != "page /p" || calls.Load() != 1 {
			t.Errorf("status %s output %q calls %d", res.Status, res.Output, calls.Load())
		}
	})
}

// TestParallelPreTools: neighbours marked parallel run at once. The
// server answers only when both requests are in, so one after the other
// would never finish within the step's time limit.
func TestParallelPreTools(t *testing.T) {
	var arrived sync.WaitGroup
	arrived.Add(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		arrived.Wait()
		_, _ = w.Write([]byte(r.URL.Path))
	}))
	defer srv.Close()
	src := "name: t\nsteps:\n  - id: s\n    type: shell\n    timeout_ms: 20000\n    pre_tools:\n" +
		"      - {type: http_fetch, url: '" + srv.URL + "/a', parallel: true, on_error: fail, inject_as: a}\n" +
		"      - {type: http_fetch, url: '" + srv.URL + "/b', parallel: true, on_error: fail, inject_as: b}\n" +
		"      - {type: bash, command: 'echo {a}{b}', inject_as: c}\n" +
		"    run: 'printf %s \"{c}\"'\n    output_var: out\noutput: out\n"
	res := runIn(t, t.TempDir(), src, nil)
	if res.Status != record.Succeeded || res.Output != "/a/b" {
		t.Errorf("status %s output %q error %s", res.Status, res.Output, res.Error)
	}
}

// TestASTParse: ast_parse outlines a Go file by its syntax tree, and a
// directory's Go, TypeScript and Python files by their declarations,
// leaving dependencies out.
func TestASTParse(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/api.go":                    "package api\n\nimport \"fmt\"\n\n// Server serves.\ntype Server struct{ n int }\n\ntype Handler interface{ Serve() }\n\nconst Version = \"1\"\n\nfunc New(n int) *Server { return &Server{n} }\n\nfunc (s *Server) Serve(addr string) error {\n\tfmt.Println(addr)\n\treturn nil\n}\n\nfunc helper() {}\n",
		"src/web/app.ts":                "import { x } from './x';\nexport async function start(port: number) {\n}\nexport class App extends Base {\n}\nconst add = (a, b) => a + b;\nexport interface Opts {}\n",
		"src/tool.py":                   "import os\n\nclass Tool(Base):\n    def run(self, x):\n        pass\n\ndef main():\n    pass\n",
		"src/node_modules/dep/index.js": "export function hidden() {}\n",
		"src/README.md":                 "# not code\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ name, pre, want string }{
		{"go file", "      - {type: ast_parse, path: src/api.go, extract: [functions, types, imports, exports], inject_as: x}\n",
			"## src/api.go\n### Functions (3)\nfunc New(n int) *Server\nfunc (s *Server) Serve(addr string) error\nfunc helper()\n### Types (2)\ntype Server struct\ntype Handler interface\n### Imports (1)\n\"fmt\"\n### Exports (4)\ntype Server\ntype Handler\nconst Version\nfunc New"},
		{"directory", "      - {type: ast_parse, path: '{input.q}', inject_as: x}\n",
			"## api.go\n### Functions (3)\nfunc New(n int) *Server\nfunc (s *Server) Serve(addr string) error\nfunc helper()\n### Exports (4)\ntype Server\ntype Handler\nconst Version\nfunc New" +
				"\n\n## tool.py\n### Functions (2)\ndef run(self, x)\ndef main()\n### Classes (1)\nclass Tool(Base)\n### Exports (2)\nclass Tool\ndef main" +
				"\n\n## web/app.ts\n### Functions (2)\nexport async function start(port: number)\nconst add = (a, b) =>\n### Classes (1)\nexport class App extends Base\n### Exports (3)\nexport async function start\nexport class App\nexport interface Opts"},
		{"nothing found", "      - {type: ast_parse, path: src/README.md, inject_as: x}\n", "(no functions, classes, exports found in src/README.md)"},
		{"missing", "      - {type: ast_parse, path: nowhere, inject_as: x}\n", "error: ast_parse: cannot read nowhere: no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runIn(t, dir, preToolStep(tc.pre), map[string]string{"q": "src"})
			if res.Status != record.Succeeded || res.Output != tc.want {
				t.Errorf("status %s error %s output\n%s\nwant\n%s", res.Status, res.Error, res.Output, tc.want)
			}
		})
	}
}
