package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestResolverFindsWhatStepsCall: a Resolver answers chain, workflow and
// script steps from the Library Open gives at each lookup (cmd's factory
// makes it once); when Open fails, every lookup fails with its error and
// finds nothing.
func TestResolverFindsWhatStepsCall(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"chains/hello.yaml":         "name: hello\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"chains/flows/review.yaml":  "workflows:\n  review: {initialState: s, states: {s: {terminal: true}}}\n",
		"chains/lib/scripts.yaml":   "scripts:\n  test.all: {verb: test, body: 'echo ok'}\n",
		"elsewhere/caller.yaml":     "name: caller\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"elsewhere/neighbour.yaml":  "name: neighbour\nsteps:\n  - {id: s, type: cli, command: echo}\n",
		"elsewhere/not-a-chain.txt": "name: txt\n",
	} {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opened := 0
	lib := &Library{Dir: filepath.Join(root, "chains")}
	r := Resolver{Open: func() (*Library, error) { opened++; return lib, nil }}
	from := filepath.Join(root, "elsewhere", "caller.yaml")
	for _, name := range []string{"hello", "neighbour"} {
		if c, err := r.Chain(name, from); err != nil || c.Name != name {
			t.Errorf("chain %s: %v %v", name, c, err)
		}
	}
	if _, err := r.Chain("txt", from); !errors.As(err, new(*NotFoundError)) {
		t.Errorf("a name nothing holds: %v", err)
	}
	if w, err := r.Workflow("review", from); err != nil || w.Name != "review" {
		t.Errorf("workflow: %v %v", w, err)
	}
	if sc, err := r.Script("test.all", from); err != nil || sc.Body != "echo ok" {
		t.Errorf("script: %+v %v", sc, err)
	}
	if opened != 5 {
		t.Errorf("Open called %d times, want once a lookup", opened)
	}

	broken := errors.New("config: bad chains_dir")
	r = Resolver{Open: func() (*Library, error) { return nil, broken }}
	if c, err := r.Chain("hello", from); c != nil || err != broken {
		t.Errorf("chain: %v %v", c, err)
	}
	if w, err := r.Workflow("review", from); w != nil || err != broken {
		t.Errorf("workflow: %v %v", w, err)
	}
	if sc, err := r.Script("test.all", from); sc != nil || err != broken {
		t.Errorf("script: %v %v", sc, err)
	}
}
