package tools

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzRun sends arbitrary arguments to every tool in a scratch working
// directory: a call may fail but must not panic, and what comes back is
// valid UTF-8. Bash gets a cancelled context, so that its arguments are
// decoded and checked but no fuzzed command ever runs.
func FuzzRun(f *testing.F) {
	seeds := []struct {
		tool uint8
		args string
	}{
		{0, `{"file_path": "a.txt"}`},
		{0, `{"file_path": "a.txt", "offset": 2, "limit": 1}`},
		{0, `{"file_path": "../a.txt", "offset": -1}`},
		{0, `{"file_path": "a.txt", "offset": 1e400}`},
		{0, `{"file_path": "a.txt", "limit": 9223372036854775807, "offset": 9223372036854775807}`},
		{1, `{"file_path": "sub/new.txt", "content": "x"}`},
		{1, `{"file_path": "/", "content": ""}`},
		{2, `{"file_path": "a.txt", "old_string": "one", "new_string": "two"}`},
		{2, `{"file_path": "a.txt", "old_string": "", "new_string": ""}`},
		{3, `{"pattern": "**/*.txt"}`},
		{3, `{"pattern": "[\\"}`},
		{3, `{"pattern": "/**/../**"}`},
		{4, `{"pattern": "(?i)one", "path": "sub"}`},
		{4, `{"pattern": "a{1000}{1000}"}`},
		{5, `{"command": "echo hi", "timeout_ms": 1}`},
		{5, `{"command": null}`},
		{6, `{}`},
		{0, ``},
		{0, `[]`},
		{0, `{"file_path": "a.txt", "file_path": 3}`},
		{0, "{\"file_path\": \"a\xff\"}"},
		{0, `{"file_path": "a\u0000b"}`},
	}
	for _, s := range seeds {
		f.Add(s.tool, []byte(s.args))
	}
	dir := workdir(f, map[string]string{"a.txt": "one\ntwo\n", "sub/b.txt": "three\n", "bin": "\x00"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		name := "NoSuchTool"
		if int(tool) < len(Names) {
			name = Names[tool]
		}
		ctx := context.Background()
		if name == "Bash" {
			ctx = cancelled
		}
		out, err := Run(ctx, Env{Dir: dir}, name, json.RawMessage(args))
		if !utf8.ValidString(out) {
			t.Errorf("invalid UTF-8 output %q", out)
		}
		if err != nil && (out != "" || !utf8.ValidString(err.Error())) {
			t.Errorf("error %q with output %q", err, out)
		}
	})
}
