package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

const (
	goodCandidate = "{initialState: a, states: {a: {transitions: {go: {target: b}}}, b: {terminal: true}}}"
	badCandidate  = "{initialState: a, states: {a: {transitions: {go: {target: nowhere}}}}}"
	writeOn       = "flowgate:\n  authoring:\n    write_enabled: true\n"
)

func TestDryRunExecutor(t *testing.T) {
	cases := []struct {
		name, context, executor string
		status                  Status
		want                    string // in the error, or in the context as JSON
	}{
		{"a candidate that loads", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: dry_run",
			Succeeded, `"json":{"definitionId":"greet","errors":[],"ok":true,"warnings":["greet.yaml:6:13: warning: state \"a\" is a decision point`},
		{"a candidate that does not load is a result", "{draft: " + badCandidate + "}", "kind: dry_run\ndefinition: \"$.context.draft\"",
			Succeeded, `"ok":false`},
		{"its errors name their place", "{draft: " + badCandidate + "}", "kind: dry_run\ndefinition: \"$.context.draft\"",
			Succeeded, `candidate.yaml:`},
		{"a literal name", "{candidate_definition: " + goodCandidate + "}", "kind: dry_run\ndefinitionId: hello",
			Succeeded, `"workflows":["hello"]`},
		{"no candidate anywhere", "", "kind: dry_run", Failed,
			"transition go failed: no candidate definition to analyse: $.arguments.definition, else $.context.candidate_definition selects nothing"},
		{"a candidate that is no definition", "{candidate_definition: 42}", "kind: dry_run", Failed,
			"$.context.candidate_definition: the definition is a number, not a workflow file or workflow"},
		{"a name that is a path", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: ../x}", "kind: dry_run", Failed,
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

func TestRegistryExecutor(t *testing.T) {
	cases := []struct {
		name, top, context, executor string
		existing                     string // a file already in the directory
		status                       Status
		want                         string
		written                      string // the file it wrote, relative to the workflow's
	}{
		{"publishes beside the workflow", writeOn, "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			Succeeded, `"json":{"definitionId":"greet","outcome":"published","path":"greet.yaml","workflows":["greet"]}`, "greet.yaml"},
		{"into its dir", writeOn, "{candidate_definition: " + goodCandidate + "}", "kind: registry\ndefinitionId: greet\ndir: published/v1", "",
			Succeeded, `"path":"published/v1/greet.yaml"`, "published/v1/greet.yaml"},
		{"writing is off", "", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			Failed, "registry: publishing is off: ", ""},
		{"writing is off, said so", "flowgate:\n  authoring:\n    write_enabled: false\n", "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			Failed, "does not set flowgate.authoring.write_enabled: true", ""},
		{"never over a file", writeOn, "{candidate_definition: " + goodCandidate + ", candidate_definition_id: greet}", "kind: registry", "greet.yaml",
			Failed, "registry: greet.yaml already exists in ", ""},
		{"a candidate that does not load", writeOn, "{candidate_definition: " + badCandidate + ", candidate_definition_id: greet}", "kind: registry", "",
			Failed, `registry: candidate "greet" does not load, so it is not published: greet.yaml:`, ""},
		{"no name", writeOn, "{candidate_definition: " + goodCandidate + "}", "kind: registry", "",
			Failed, "no name to publish the candidate under: $.arguments.definitionId, else $.arguments.definition_id, else $.context.candidate_definition_id selects nothing", ""},
		{"a name that leaves the directory", writeOn, "{candidate_definition: " + goodCandidate + ", candidate_definition_id: ../../etc/x}", "kind: registry", "",
			Failed, "the candidate's name ../../etc/x is not a name", ""},
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
			l, err := chain.LoadFile(file, chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: l.Chain})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", res.Status, tc.status, res.Error)
			}
			if text := res.Error + asJSON(t, res.Context); !strings.Contains(text, tc.want) {
				t.Errorf("no %q in %s", tc.want, text)
			}
			if tc.existing != "" {
				if b, _ := os.ReadFile(filepath.Join(dir, tc.existing)); string(b) != "kept\n" {
					t.Errorf("%s was overwritten: %q", tc.existing, b)
				}
			}
			if tc.written == "" {
				return
			}
			if _, err := chain.LoadFile(filepath.Join(dir, tc.written), chain.Options{}); err != nil {
				t.Errorf("the published file does not load: %v", err)
			}
		})
	}
}
