package chain

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: whatever the bytes, Parse gives a chain or a validation
// error, never a panic or an error of another kind.
func FuzzParse(f *testing.F) {
	f.Add([]byte("name: x\nsteps:\n  - {id: a, type: cli, command: echo}\n"))
	f.Add([]byte("name: x\nsteps:\n  - {id: a, prompt: '{b}', depends_on: [a]}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	// every bundled chain, and reference 000's document
	files, _ := filepath.Glob("../../chains/*.yaml")
	for _, p := range append(files, "testdata/deploy_pipeline.yaml") {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(wfHead + "      a:\n        task: {kind: transform, expr: '1'}\n        transition:\n          branches: [{operator: range, when: '0,9', goto: end, compose: {with_var: v, strategy: 'json_path:$.a'}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("f.yaml", data, Options{})
		if err == nil && l.Chain == nil {
			t.Fatal("no error and no chain")
		}
		if err != nil && !IsValidation(err) {
			t.Fatalf("error of type %T: %v", err, err)
		}
	})
}
