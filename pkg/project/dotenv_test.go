package project

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/dotenv"
)

// TestDotenv: config dotenv is relative to the config file, may mark a
// file optional, and CHAINRUN_DOTENV (relative to the current directory)
// beats it; a value of another shape is refused when the file loads.
func TestDotenv(t *testing.T) {
	cfg := filepath.Join("/p", "chainrun.yaml")
	from := "config file " + cfg
	env := map[string]string{}
	l := NewLayers(func(k string) string { return env[k] })
	top := map[string]any{"dotenv": []any{".env", map[string]any{"path": "/abs/.env.local", "required": false}}}
	if err := CheckFileSettings(cfg, top); err != nil {
		t.Fatal(err)
	}
	l.SetFile(cfg, top)
	want := []dotenv.File{{Path: "/p/.env", From: from}, {Path: "/abs/.env.local", Optional: true, From: from}}
	if got := Dotenv(l); !reflect.DeepEqual(got, want) {
		t.Errorf("file: got %+v", got)
	}
	l.SetFile(cfg, map[string]any{"dotenv": "sub/.env"})
	if got := Dotenv(l); len(got) != 1 || got[0].Path != "/p/sub/.env" {
		t.Errorf("one path: got %+v", got)
	}
	env["CHAINRUN_DOTENV"] = "a.env, b.env"
	want = []dotenv.File{{Path: "a.env", From: "CHAINRUN_DOTENV"}, {Path: "b.env", From: "CHAINRUN_DOTENV"}}
	if got := Dotenv(l); !reflect.DeepEqual(got, want) {
		t.Errorf("env: got %+v", got)
	}
	for _, bad := range []any{3, []any{map[string]any{"path": ".env", "required": "no"}}, map[string]any{"file": ".env"}, []any{""}} {
		err := CheckFileSettings(cfg, map[string]any{"dotenv": bad})
		if err == nil || !strings.HasPrefix(err.Error(), "config file /p/chainrun.yaml: dotenv: ") {
			t.Errorf("%v: got %v", bad, err)
		}
	}
}
