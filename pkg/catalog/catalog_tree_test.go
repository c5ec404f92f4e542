package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindWorkflowTakesTheNearest: a definitionId is found in the chains
// directory and below it; of several files holding it, the one nearest
// to the calling file; two equally near are an error naming both.
func TestFindWorkflowTakesTheNearest(t *testing.T) {
	root := t.TempDir()
	wf := func(name string) string {
		return "workflows:\n  " + name + ":\n    initialState: s\n    states: {s: {terminal: true}}\n"
	}
	files := map[string]string{
		"arch/capabilities/cap.vet.yaml":       wf("cap.vet"),
		"arch/orchestrators/flow.yaml":         wf("flow.x"),
		"repos/core/capabilities/cap.vet.yaml": wf("cap.vet"),
		"repos/core/orchestrators/flow.yaml":   wf("flow.x"),
		"repos/twin/a.yaml":                    wf("cap.twin"),
		"repos/twin/b.yaml":                    wf("cap.twin"),
		".hidden/cap.hid.yaml":                 wf("cap.hid"),
		"top.yaml":                             wf("cap.top"),
		"arch/orchestrators/flow.only.yaml":    wf("flow.only"),
		"arch/scripts-library/test.yaml":       "version: '1'\nscripts:\n  test.all: {verb: test, body: 'echo near'}\n",
		"repos/core/lib.yaml":                  "scripts:\n  test.all: {verb: test, body: 'echo far'}\n  lint.all: {verb: lint, body: 'echo lint'}\n",
	}
	for rel, src := range files {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib := &Library{Dir: root}
	from := func(rel string) string { return filepath.Join(root, rel) }
	for _, tc := range []struct{ name, from, want string }{
		{"cap.vet", from("arch/orchestrators/flow.yaml"), "arch/capabilities/cap.vet.yaml"},
		{"cap.vet", from("repos/core/orchestrators/flow.yaml"), "repos/core/capabilities/cap.vet.yaml"},
		{"cap.vet", from("repos/core/orchestrators/flow.yaml") + " (snapshot)", "repos/core/capabilities/cap.vet.yaml"},
		{"cap.top", from("arch/orchestrators/flow.yaml"), "top.yaml"},
	} {
		c, err := lib.FindWorkflow(tc.name, tc.from)
		if err != nil {
			t.Errorf("%s from %s: %v", tc.name, tc.from, err)
			continue
		}
		if got, _ := filepath.Rel(root, c.File); got != tc.want || c.Name != tc.name {
			t.Errorf("%s from %s: %s %s, want %s", tc.name, tc.from, c.Name, got, tc.want)
		}
	}
	_, err := lib.FindWorkflow("cap.vet", "/elsewhere/flow.yaml")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(amb.Files) != 2 {
		t.Errorf("two equally far: %v", err)
	}
	_, err = lib.FindWorkflow("cap.twin", from("repos/twin/a.yaml"))
	if !errors.As(err, &amb) || !strings.Contains(err.Error(), "none nearer") {
		t.Errorf("two in one directory: %v", err)
	}
	_, err = lib.FindWorkflow("cap.hid", from("top.yaml"))
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), " and its subdirectories, or of ") {
		t.Errorf("a hidden directory's: %v", err)
	}

	// run NAME: a name the top of the directory lacks is found below it,
	// in the one file holding it
	l, err := lib.Resolve("flow.only")
	if err != nil || l.Chain.Name != "flow.only" {
		t.Errorf("flow.only: %v", err)
	}
	if _, err := lib.Resolve("flow.x"); !errors.As(err, &amb) || !strings.Contains(err.Error(), "run the one meant by its path") {
		t.Errorf("flow.x in two subdirectories: %v", err)
	}
	if l, err := lib.Resolve("cap.top"); err != nil || l.Chain.Name != "cap.top" {
		t.Errorf("cap.top: %v", err)
	}
	if _, err := lib.Resolve("nothing"); !errors.As(err, &nf) {
		t.Errorf("nothing: %v", err)
	}

	// scripts: of other files, found as workflows are
	sc, err := lib.FindScript("test.all", from("arch/capabilities/cap.vet.yaml"))
	if err != nil || sc.Body != "echo near" {
		t.Errorf("test.all: %+v %v", sc, err)
	}
	if sc, err := lib.FindScript("lint.all", from("arch/capabilities/cap.vet.yaml")); err != nil || sc.Body != "echo lint" {
		t.Errorf("lint.all: %+v %v", sc, err)
	}
	if _, err := lib.FindScript("test.al", from("top.yaml")); !errors.As(err, &nf) || !strings.Contains(err.Error(), `no script named "test.al"`) || !strings.Contains(err.Error(), "did you mean test.all?") {
		t.Errorf("test.al: %v", err)
	}
}
