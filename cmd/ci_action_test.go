package cmd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	yaml "go.yaml.in/yaml/v4"
)

// ciAction writes the script of the "run" step of the repository's
// action (action.yml, `uses: chainrun/chainrun@v1`) to a file (ci-action
// FILE), having checked that the action is composite, that its outputs
// are the ones that step writes to $GITHUB_OUTPUT, and that the step runs
// .github/action/run.sh: ci_action.txtar runs that script as GitHub would.
func ciAction(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: ci-action FILE")
	}
	repo := ts.Getenv("REPO")
	data, err := os.ReadFile(filepath.Join(repo, "action.yml"))
	ts.Check(err)
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
	ts.Check(yaml.Load(data, &action))
	if action.Runs.Using != "composite" {
		ts.Fatalf("the action runs %q, not composite", action.Runs.Using)
	}
	for _, name := range []string{"run-id", "status", "exit-code", "output"} {
		if got, want := action.Outputs[name].Value, "${{ steps.run.outputs."+name+" }}"; got != want {
			ts.Fatalf("output %s is %q, want %q", name, got, want)
		}
	}
	for _, s := range action.Runs.Steps {
		if s.ID == "run" {
			if s.Shell != "bash" {
				ts.Fatalf("the run step's shell is %q, not bash", s.Shell)
			}
			if want := `bash "$GITHUB_ACTION_PATH/.github/action/run.sh"`; strings.TrimSpace(s.Run) != want {
				ts.Fatalf("the run step runs %q, not %s", s.Run, want)
			}
			script, err := os.ReadFile(filepath.Join(repo, ".github", "action", "run.sh"))
			ts.Check(err)
			ts.Check(os.WriteFile(ts.MkAbs(args[0]), script, 0o644))
			return
		}
	}
	ts.Fatalf("the action has no step with id run")
}
