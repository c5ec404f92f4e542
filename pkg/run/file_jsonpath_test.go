package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFilePathAsJSONPath: a file step's or file executor's path written
// as a $.-path is resolved against the run, as an argument is — an input,
// a slot of a workflow's context — and one that selects nothing fails the
// step naming the path, never reading a file called "$.context.p".
func TestFilePathAsJSONPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("from the notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	dag := "name: c\ninputs: [f]\nsteps:\n  - {id: r, type: file, path: $.input.f, output_var: out}\noutput: out\n"
	flow := wf(`    states:
      a:
        transitions:
          pick: {target: b, actor: deterministic, output: {p: {concat: ["notes", ".txt"]}}}
      b:
        transitions:
          read: {target: done, actor: deterministic, executor: {kind: file, path: "$.context.p", output_var: text}}
      done: {terminal: true}
    output: text
`)
	unset := wf(`    states:
      a:
        transitions:
          read: {target: done, actor: deterministic, executor: {kind: file, path: "$.context.never"}}
      done: {terminal: true}
`)
	cases := []struct {
		name, src string
		inputs    map[string]string
		want      string
		fails     string
	}{
		{"an input", dag, map[string]string{"f": "notes.txt"}, "from the notes", ""},
		{"a context slot", flow, nil, "from the notes", ""},
		{"nothing selected", unset, nil, "", "$.context.never matches nothing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, c.src), Inputs: c.inputs})
			if err != nil {
				t.Fatal(err)
			}
			if c.fails != "" {
				if res.Status != record.Failed || !strings.Contains(res.Error, c.fails) {
					t.Fatalf("%s %q", res.Status, res.Error)
				}
				return
			}
			if res.Status != record.Succeeded || res.Output != c.want {
				t.Fatalf("%s %q %v", res.Status, res.Error, res.Output)
			}
		})
	}
}
