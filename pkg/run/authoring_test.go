package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

const (
	goodCandidate = "{initialState: a, states: {a: {transitions: {go: {target: b}}}, b: {terminal: true}}}"
	badCandidate  = "{initialState: a, states: {a: {transitions: {go: {target: nowhere}}}}}"
	writeOn       = "flowgate:\n  authoring:\n    write_enabled: true\n"
)

func TestDryRunExecutor(t *testing.T) {
	cases := []struct {
		name, context, executor string
		status                  record.Status
		want                    string // in the error, or in the context as JSON
	}{
		{"a candidate that loads", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: dry_run",
			record.Succeeded, `"json":{"definitionId":"greet","errors":[],"ok":true,"warnings":["greet.yaml:6:13: warning: state \"a\" is a decision point`},
		{"a candidate that does not load is a result", "{draft: " + badCandidate + "}", "kind: dry_run\ndefinition: \"$.context.draft\"",
			record.Succeeded, `"ok":false`},
		{"its errors name their place", "{draft: " + badCandidate + "}", "kind: dry_run\ndefinition: \"$.context.draft\"",
			record.Succeeded, `candidate.yaml:`},
		{"a literal name", "{candidate_definition: " + goodCandidate + "}", "kind: dry_run\ndefinitionId: hello",
			record.Succeeded, `"workflows":["hello"]`},
		{"no candidate anywhere", "", "kind: dry_run", record.Failed,
			"transition go failed: no candidate definition to analyse: $.arguments.definition, else $.context.candidate_definition selects nothing"},
		{"a candidate that is no definition is a result", "{candidate_definition: 42}", "kind: dry_run", record.Succeeded,
			`"errors":["$.context.candidate_definition: the definition is a number, not a workflow file or workflow`},
		{"text that is not YAML is a result", `{candidate_definition: "a: [unclosed"}`, "kind: dry_run", record.Succeeded,
			`"definitionId":"candidate","errors":["$.context.candidate_definition: the definition is text that is not YAML or JSON`},
		{"JSON cut short is a result", `{candidate_definition: '{"initialState": "a", "states": {'}`, "kind: dry_run", record.Succeeded,
			`"ok":false`},
		{"text that is YAML but no workflow is a result", `{candidate_definition: "just words"}`, "kind: dry_run", record.Succeeded,
			`"ok":false`},
		{"a workflow named other than the definition", "{candidate_definition: {workflows: {hello: " + goodCandidate + "}}, candidate_definition_id: innocent}", "kind: dry_run", record.Succeeded,
			`"errors":["workflow \"hello\" is not named innocent, the candidate's definitionId: innocent.yaml holds the one workflow innocent"],"ok":false`},
		{"a name that is a path", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: ../x}", "kind: dry_run", record.Failed,
			"$.context.candidate_definition_id: the candidate's name ../x is not a name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runFlow(t, withContext(executorFlow("", tc.executor, "report: \"$.output\""), tc.context), Request{})
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", res.Status, tc.status, res.Error)
			}
			if text := res.Error + asJSON(t, res.Context); !strings.Contains(text, tc.want) {
				t.Errorf("no %q in %s", tc.want, text)
			}
		})
	}
}

// TestAuthoringRefusesNamesInUse: a candidate may not take the name of a
// chain or workflow already in the workflow file's directory or below
// (publishing it would take that one out of service), nor hold workflows
// named other than its definitionId; dry_run says so as a result,
// registry fails and writes nothing.
func TestAuthoringRefusesNamesInUse(t *testing.T) {
	cases := []struct {
		name, context, executor string
		status                  record.Status
		want                    string
		written                 string
	}{
		{"a DAG chain's name", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: hello}", "kind: registry\ndir: published", record.Failed,
			"registry: candidate \"hello\" is not published: a chain or workflow named hello is already in hello.yaml", ""},
		{"a DAG chain's name and file", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: hello}", "kind: registry", record.Failed,
			"registry: hello.yaml already exists", ""},
		{"a workflow's name in a subdirectory", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: deploy}", "kind: registry\ndir: published", record.Failed,
			"a chain or workflow named deploy is already in ops/deploy.yaml", ""},
		{"the authoring workflow's own name", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: w}", "kind: registry", record.Failed,
			"a chain or workflow named w is already in author.yaml", ""},
		{"a workflow named like an existing chain under another definitionId", "{candidate_definition: {workflows: {hello: " + goodCandidate + "}}, candidate_definition_id: innocent}", "kind: registry", record.Failed,
			"workflow \"hello\" is not named innocent", ""},
		{"a second workflow in the candidate", "{candidate_definition: {workflows: {fresh: " + goodCandidate + ", helper: " + goodCandidate + "}}, candidate_definition_id: fresh}", "kind: registry", record.Failed,
			"workflow \"helper\" is not named fresh", ""},
		{"dry_run says so as a result", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: hello}", "kind: dry_run", record.Succeeded,
			`"errors":["a chain or workflow named hello is already in hello.yaml: publishing it would take that one out of service; choose another definitionId"],"ok":false`, ""},
		{"a name nothing uses", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: fresh}", "kind: registry", record.Succeeded,
			`"path":"fresh.yaml"`, "fresh.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"author.yaml":     writeOn + withContext(executorFlow("", tc.executor, "report: \"$.output\""), tc.context),
				"hello.yaml":      "name: hello\nsteps:\n  - {id: a, type: cli, run: 'echo hi'}\n",
				"ops/deploy.yaml": "workflows:\n  deploy: " + goodCandidate + "\n",
			}
			for name, text := range files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			runAuthorFile(t, filepath.Join(dir, "author.yaml"), tc.status, tc.want)
			for _, name := range []string{"hello.yaml", "innocent.yaml", "deploy.yaml", "published/deploy.yaml", "published/hello.yaml", "w.yaml", "fresh.yaml"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err == nil != (name == "hello.yaml" || name == tc.written) {
					t.Errorf("%s: exists %v", name, err == nil)
				}
			}
		})
	}
}

// runAuthorFile runs the workflow file at path, which must end with
// status and hold want in its error or context.
func runAuthorFile(t *testing.T, path string, status record.Status, want string) {
	t.Helper()
	l, err := loader.LoadFile(path, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := New(WithDir(t.TempDir()), withCatalog).Run(context.Background(), Request{Chain: l.Chain})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != status {
		t.Fatalf("status %s, want %s: %s", res.Status, status, res.Error)
	}
	if text := res.Error + asJSON(t, res.Context); !strings.Contains(text, want) {
		t.Errorf("no %q in %s", want, text)
	}
}

func TestRegistryExecutor(t *testing.T) {
	cases := []struct {
		name, top, context, executor string
		existing                     string // a file already in the directory
		status                       record.Status
		want                         string
		written                      string // the file it wrote, relative to the workflow's
	}{
		{"publishes beside the workflow", writeOn, "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			record.Succeeded, `"json":{"definitionId":"greet","outcome":"published","path":"greet.yaml","workflows":["greet"]}`, "greet.yaml"},
		{"into its dir", writeOn, "{candidate_definition: " + goodCandidate + "}", "kind: registry\ndefinitionId: greet\ndir: published/v1", "",
			record.Succeeded, `"path":"published/v1/greet.yaml"`, "published/v1/greet.yaml"},
		{"writing is off", "", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			record.Failed, "registry: publishing is off: ", ""},
		{"writing is off, said so", "flowgate:\n  authoring:\n    write_enabled: false\n", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			record.Failed, "does not set flowgate.authoring.write_enabled: true", ""},
		{"never over a file", writeOn, "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "greet.yaml",
			record.Failed, "registry: greet.yaml already exists in ", ""},
		{"a candidate that does not load", writeOn, "{candidate_definition: " + badCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			record.Failed, `registry: candidate "greet" does not load, so it is not published: greet.yaml:`, ""},
		{"no name", writeOn, "{candidate_definition: " + goodCandidate + "}", "kind: registry", "",
			record.Failed, "no name to publish the candidate under: $.arguments.definitionId, else $.arguments.definition_id, else $.context.candidate_definition_id selects nothing", ""},
		{"a name that leaves the directory", writeOn, "{candidate_definition: " + goodCandidate + ", candidate_definition_id: ../../etc/x}", "kind: registry", "",
			record.Failed, "the candidate's name ../../etc/x is not a name", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "author.yaml")
			src := withContext(executorFlow("", tc.executor, "published: \"$.output\""), tc.context)
			if err := os.WriteFile(file, []byte(tc.top+src), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.existing != "" {
				if err := os.WriteFile(filepath.Join(dir, tc.existing), []byte("kept\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			runAuthorFile(t, file, tc.status, tc.want)
			if tc.existing != "" {
				if b, _ := os.ReadFile(filepath.Join(dir, tc.existing)); string(b) != "kept\n" {
					t.Errorf("%s was overwritten: %q", tc.existing, b)
				}
			}
			if tc.written == "" {
				return
			}
			if _, err := loader.LoadFile(filepath.Join(dir, tc.written), chain.Options{}); err != nil {
				t.Errorf("the published file does not load: %v", err)
			}
		})
	}
}
