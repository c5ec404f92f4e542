package cmd

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra/doc"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// TestCLIReferenceIsCurrent keeps docs/reference (one Markdown page per
// command, generated from the cobra commands) in step with the CLI.
// UPDATE_GOLDEN=1 go test ./cmd -run TestCLIReferenceIsCurrent rewrites it.
// It documents every command and flag of both builds, the Temporal
// engine's included (the standard build hides those from its help).
func TestCLIReferenceIsCurrent(t *testing.T) {
	saved := extension
	extension = &Extension{}
	defer func() { extension = saved }()
	io, _, _, _ := iostreams.Test()
	root := newRootCmd(newFactory(io))
	root.DisableAutoGenTag = true
	tmp := t.TempDir()
	if err := doc.GenMarkdownTree(root, tmp); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("..", "docs", "reference")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.RemoveAll(want); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(want, os.DirFS(tmp)); err != nil {
			t.Fatal(err)
		}
		return
	}
	generated, _ := os.ReadDir(tmp)
	current, _ := os.ReadDir(want)
	if len(generated) != len(current) {
		t.Fatalf("docs/reference has %d pages, the CLI %d: run UPDATE_GOLDEN=1 go test ./cmd -run TestCLIReferenceIsCurrent", len(current), len(generated))
	}
	for _, e := range generated {
		got, _ := os.ReadFile(filepath.Join(tmp, e.Name()))
		have, err := os.ReadFile(filepath.Join(want, e.Name()))
		if err != nil || string(got) != string(have) {
			t.Errorf("docs/reference/%s is out of date: run UPDATE_GOLDEN=1 go test ./cmd -run TestCLIReferenceIsCurrent", e.Name())
		}
	}
}

// TestSchemaFileIsCurrent keeps docs/chain.schema.json — the schema
// editors can point at without running chainrun — equal to what
// `chainrun schema` prints (a golden file: UPDATE_GOLDEN=1 rewrites it).
func TestSchemaFileIsCurrent(t *testing.T) {
	io, _, out, _ := iostreams.Test()
	if code := Execute(context.Background(), io, []string{"schema"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	path := filepath.Join("..", "docs", "chain.schema.json")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil || string(have) != out.String() {
		t.Fatalf("docs/chain.schema.json is out of date: run UPDATE_GOLDEN=1 go test ./cmd -run TestSchemaFileIsCurrent")
	}
}
