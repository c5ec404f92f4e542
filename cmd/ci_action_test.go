package cmd

import (
	"os"
	"path/filepath"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"
	yaml "go.yaml.in/yaml/v4"
)

// ciAction writes the script of the "run" step of docs/ci.md's composite
// action to a file (ci-action FILE), having checked that the action is
// composite and that its outputs are the ones chainrun writes to
// $GITHUB_OUTPUT in that step: ci_action.txtar runs the script as
// written.
func ciAction(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: ci-action FILE")
	}
	page, err := os.ReadFile(filepath.Join(ts.Getenv("REPO"), "docs", "ci.md"))
	ts.Check(err)
	m := regexp.MustCompile("(?s)```yaml\n(# \\.github/actions/chainrun/action\\.yml\n.*?)```").FindSubmatch(page)
	if m == nil {
		ts.Fatalf("docs/ci.md has no .github/actions/chainrun/action.yml")
	}
	var action struct {
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID    string `yaml:"id"`
				Shell string `yaml:"shell"`
				Run   string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	ts.Check(yaml.Load(m[1], &action))
	if action.Runs.Using != "composite" {
		ts.Fatalf("the action runs %q, not composite", action.Runs.Using)
	}
	for _, name := range []string{"run_id", "status", "exit_code", "output"} {
		if got, want := action.Outputs[name].Value, "${{ steps.run.outputs."+name+" }}"; got != want {
			ts.Fatalf("output %s is %q, want %q", name, got, want)
		}
	}
	for _, s := range action.Runs.Steps {
		if s.ID == "run" {
			if s.Shell != "bash" {
				ts.Fatalf("the run step's shell is %q, not bash", s.Shell)
			}
			ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(s.Run), 0o644))
			return
		}
	}
	ts.Fatalf("the action has no step with id run")
}
