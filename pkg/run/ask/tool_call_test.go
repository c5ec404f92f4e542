package ask

import (
	"strings"
	"testing"
)

// TestCallSubject: a tool call is named by what it touches (the file,
// pattern, command, URL or query of its arguments), on one line, bounded,
// with nothing a terminal would obey; "" when the arguments name none.
func TestCallSubject(t *testing.T) {
	long := strings.Repeat("d/", 60) + "x.go"
	for _, tt := range []struct{ args, want string }{
		{`{"file_path": "internal/calc.go"}`, "internal/calc.go"},
		{`{"pattern": "**/*_test.go", "path": "pkg"}`, "**/*_test.go"},
		{`{"command": "go test ./...\necho done"}`, "go test ./... …"},
		{`{"url": "https://example.test/a?b=c"}`, "https://example.test/a?b=c"},
		{`{"query": "golang tabwriter"}`, "golang tabwriter"},
		{`{"file_path": "a\u001b[2Jb\u0007.txt"}`, "a?[2Jb?.txt"},
		{`{"file_path": "` + long + `"}`, long[:59] + "…"},
		{`{"content": "only content"}`, ""},
		{`{"file_path": 7}`, ""},
		{`not json`, ""},
		{``, ""},
	} {
		if got := CallSubject(tt.args); got != tt.want {
			t.Errorf("CallSubject(%.40q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}
