package inputs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseArgs holds how decision arguments are read: a JSON file's
// values keep their types, --arg values are text and win.
func TestParseArgs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "args.json")
	if err := os.WriteFile(file, []byte(`{"score": 7, "note": "file", "tags": ["a"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[1]`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		flags []string
		file  string
		want  map[string]any
		err   string
	}{
		{"none", nil, "", nil, ""},
		{"flags", []string{"reason=looks good", "score=9"}, "", map[string]any{"reason": "looks good", "score": "9"}, ""},
		{"file, flags win", []string{"note=flag"}, file, map[string]any{"score": float64(7), "note": "flag", "tags": []any{"a"}}, ""},
		{"no equals", []string{"reason"}, "", nil, `--arg "reason": write name=value`},
		{"bad name", []string{"a b=1"}, "", nil, "write name=value"},
		{"not an object", nil, bad, nil, "want a JSON object"},
		{"missing file", nil, filepath.Join(dir, "nope.json"), nil, "--args-file"},
	}
	for _, tt := range tests {
		got, err := ParseArgs(tt.flags, tt.file)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %#v %v, want %#v", tt.name, got, err, tt.want)
		}
	}
}
