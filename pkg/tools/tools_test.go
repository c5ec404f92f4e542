package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// workdir makes a working directory holding files (path → content).
func workdir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// call runs a tool with args: a string is sent as it is, anything else is
// encoded as JSON first.
func call(t testing.TB, dir, name string, args any) (string, error) {
	t.Helper()
	raw, ok := args.(string)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	out, err := Run(context.Background(), Env{Dir: dir}, name, json.RawMessage(raw))
	if !utf8.ValidString(out) || (err != nil && !utf8.ValidString(err.Error())) {
		t.Errorf("%s: invalid UTF-8 in %q / %v", name, out, err)
	}
	return out, err
}

// expect checks a call's result: out is what the output must equal, or
// with wantErr a part the error message must contain.
type expect struct {
	out     string
	wantErr bool
}

func (e expect) check(t *testing.T, out string, err error) {
	t.Helper()
	switch {
	case e.wantErr && err == nil:
		t.Fatalf("no error; output:\n%s", out)
	case e.wantErr && !strings.Contains(err.Error(), e.out):
		t.Fatalf("error %q does not contain %q", err, e.out)
	case !e.wantErr && err != nil:
		t.Fatalf("error: %v", err)
	case !e.wantErr && out != e.out:
		t.Fatalf("output:\n%s\nwant:\n%s", out, e.out)
	}
}

func TestSpecs(t *testing.T) {
	if len(Names) != len(builtins) {
		t.Fatalf("Names has %d tools, builtins %d", len(Names), len(builtins))
	}
	wantParams := map[string][]string{
		"Read":      {"file_path", "offset", "limit"},
		"Write":     {"file_path", "content"},
		"Edit":      {"file_path", "old_string", "new_string"},
		"Glob":      {"pattern"},
		"Grep":      {"pattern", "path"},
		"Bash":      {"command", "timeout_ms"},
		"WebFetch":  {"url", "prompt"},
		"WebSearch": {"query"},
	}
	wantRequired := map[string][]any{
		"Read":      {"file_path"},
		"Write":     {"file_path", "content"},
		"Edit":      {"file_path", "old_string", "new_string"},
		"Glob":      {"pattern"},
		"Grep":      {"pattern"},
		"Bash":      {"command"},
		"WebFetch":  {"url"},
		"WebSearch": {"query"},
	}
	for _, name := range Names {
		s, ok := Lookup(name)
		if !ok || s.Name != name || s.Description == "" {
			t.Fatalf("%s: %+v %v", name, s, ok)
		}
		if s.Schema["type"] != "object" || s.Schema["additionalProperties"] != false {
			t.Errorf("%s: schema %v", name, s.Schema)
		}
		if req := s.Schema["required"].([]any); !slices.Equal(req, wantRequired[name]) {
			t.Errorf("%s: required %v, want %v", name, req, wantRequired[name])
		}
		props := s.Schema["properties"].(map[string]any)
		if len(props) != len(wantParams[name]) {
			t.Errorf("%s: properties %v", name, props)
		}
		for _, p := range wantParams[name] {
			prop, ok := props[p].(map[string]any)
			if !ok || prop["description"] == "" || (prop["type"] != "string" && prop["type"] != "integer") {
				t.Errorf("%s.%s: %v", name, p, prop)
			}
		}
		// The schema goes to providers as JSON.
		if _, err := json.Marshal(s.Schema); err != nil {
			t.Error(err)
		}
		// Each call gets its own copy.
		s.Schema["properties"] = nil
		if again, _ := Lookup(name); again.Schema["properties"] == nil {
			t.Errorf("%s: Lookup returned a shared schema", name)
		}
	}
	if _, ok := Lookup("read"); ok {
		t.Error("Lookup is case-sensitive")
	}
}

func TestArguments(t *testing.T) {
	dir := workdir(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	tests := []struct {
		name, tool, args string
		expect
	}{
		{"unknown tool", "Delete", `{}`, expect{`unknown tool "Delete"`, true}},
		{"array", "Read", `["a.txt"]`, expect{"must be a JSON object", true}},
		{"string", "Read", `"a.txt"`, expect{"must be a JSON object", true}},
		{"null", "Read", `null`, expect{"must be a JSON object", true}},
		{"number", "Read", `12`, expect{"must be a JSON object", true}},
		{"invalid JSON", "Read", `{"file_path": "a.txt"`, expect{"not valid JSON", true}},
		{"trailing data", "Read", `{"file_path": "a.txt"} {}`, expect{"not valid JSON", true}},
		{"no arguments", "Glob", ``, expect{`missing required argument "pattern"`, true}},
		{"empty object", "Read", `{}`, expect{`missing required argument "file_path"`, true}},
		{"null required", "Read", `{"file_path": null}`, expect{`missing required argument "file_path"`, true}},
		{"missing second", "Edit", `{"file_path": "a.txt", "old_string": "one"}`, expect{`missing required argument "new_string"`, true}},
		{"unknown field", "Read", `{"file_path": "a.txt", "path": "b"}`, expect{`unknown argument "path" (the arguments are file_path, offset, limit)`, true}},
		{"unknown fields sorted", "Glob", `{"pattern": "*", "z": 1, "a": 2}`, expect{`unknown argument "a", "z"`, true}},
		{"int for string", "Read", `{"file_path": 3}`, expect{`argument "file_path" must be a string, not 3`, true}},
		{"object for string", "Bash", `{"command": {"x": 1}}`, expect{`argument "command" must be a string`, true}},
		{"string for int", "Read", `{"file_path": "a.txt", "offset": "2"}`, expect{`argument "offset" must be an integer, not "2"`, true}},
		{"fraction for int", "Read", `{"file_path": "a.txt", "limit": 1.5}`, expect{`argument "limit" must be an integer`, true}},
		{"bool for int", "Bash", `{"command": "true", "timeout_ms": true}`, expect{`argument "timeout_ms" must be an integer`, true}},
		{"huge int", "Read", `{"file_path": "a.txt", "offset": 1e30}`, expect{`argument "offset" must be an integer`, true}},
		{"tool name in message", "Grep", `{}`, expect{"Grep: missing", true}},
		{"integral float", "Read", `{"file_path": "a.txt", "offset": 2.0, "limit": 1e0}`, expect{"     2\ttwo\n… (more lines follow; read on with offset 3)", false}},
		{"null optional", "Read", `{"file_path": "a.txt", "offset": null}`, expect{"     1\tone\n     2\ttwo\n     3\tthree", false}},
		{"spaces around", "Read", " \n{\"file_path\":\"a.txt\",\"limit\":1}\n", expect{"     1\tone\n… (more lines follow; read on with offset 2)", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := call(t, dir, tt.tool, tt.args)
			tt.check(t, out, err)
		})
	}
}

// validArgs are arguments each tool accepts.
var validArgs = map[string]string{
	"Read":      `{"file_path": "a.txt"}`,
	"Write":     `{"file_path": "new.txt", "content": "x"}`,
	"Edit":      `{"file_path": "a.txt", "old_string": "one", "new_string": "1"}`,
	"Glob":      `{"pattern": "*"}`,
	"Grep":      `{"pattern": "o"}`,
	"Bash":      `{"command": "true"}`,
	"WebFetch":  `{"url": "https://example.com"}`,
	"WebSearch": `{"query": "x"}`,
}

func TestBadWorkingDirectory(t *testing.T) {
	file := filepath.Join(workdir(t, map[string]string{"f": "x"}), "f")
	for _, dir := range []string{"", "relative/dir", "/no/such/dir", file} {
		for _, name := range Names {
			_, err := Run(context.Background(), Env{Dir: dir}, name, json.RawMessage(validArgs[name]))
			if err == nil || !strings.Contains(err.Error(), "working directory") {
				t.Errorf("%s in %q: %v", name, dir, err)
			}
		}
	}
}
