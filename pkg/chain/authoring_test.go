package chain

import (
	"slices"
	"strings"
	"testing"
)

// TestAuthoringKinds: dry_run and registry load with their defaults and
// with their own places; bad fields are named at their line.
func TestAuthoringKinds(t *testing.T) {
	// the file's gate, flowgate.authoring.write_enabled, is mcp-flowgate's
	// (format/flowgate's TestWriteEnabled); a registry step loads without
	// it
	cases := []struct{ name, top, executor, want string }{
		{"dry_run with defaults", "", "kind: dry_run\n", ""},
		{"dry_run with its places", "", "kind: dry_run\ndefinition: \"$.context.draft\"\ndefinitionId: \"$.context.name\"\n", ""},
		{"registry with a literal name and a dir", "", "kind: registry\ndefinitionId: published-one\ndir: published/flows\n", ""},
		{"registry without the gate loads", "", "kind: registry\n", ""},
		{"registry dir outside", "", "kind: registry\ndir: ../elsewhere\n", `c.yaml:12:15: transition "go" executor: dir "../elsewhere" must stay inside`},
		{"registry dir absolute", "", "kind: registry\ndir: /etc\n", `dir "/etc" must stay inside`},
		{"a name that is a path", "", "kind: dry_run\ndefinitionId: ../x\n", `definitionId "../x" is a $.-path or a name`},
		{"a bad path", "", "kind: dry_run\ndefinition: \"$.context[\"\n", `definition:`},
		{"a field of another kind", "", "kind: dry_run\ndir: x\n", `dir does not belong to a dry_run step`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { expectLoad(t, executorFile(tc.top, tc.executor), tc.want) })
	}
}

// TestCandidateFile: a bare workflow is wrapped under its name, a file
// kept, text read; anything else is an error. CheckCandidate reports the
// loader's errors at their place in the candidate's text.
func TestCandidateFile(t *testing.T) {
	bare := map[string]any{"initialState": "a", "states": map[string]any{"a": map[string]any{"transitions": map[string]any{"go": map[string]any{"target": "b"}}}, "b": map[string]any{"terminal": true}}}
	for _, tc := range []struct {
		name      string
		candidate any
		workflows []string
		errs      string
		bad       string
	}{
		{"a bare workflow", bare, []string{"cand"}, "", ""},
		{"a file", map[string]any{"workflows": map[string]any{"x": bare, "y": bare}}, []string{"x", "y"}, "", ""},
		{"text", "initialState: a\nstates: {a: {transitions: {go: {target: b}}}, b: {terminal: true}}\n", []string{"cand"}, "", ""},
		{"a workflow that does not load", map[string]any{"initialState": "a", "states": map[string]any{"a": map[string]any{"transitions": map[string]any{"go": map[string]any{"target": "nowhere"}}}}}, nil, "cand.yaml:", ""},
		{"not a mapping", []any{1}, nil, "", "not a workflow file or workflow"},
		{"a mapping of something else", map[string]any{"name": "x"}, nil, "", "neither workflows nor"},
		{"bad text", "states: [a", nil, "", "not YAML or JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, err := CandidateFile(tc.candidate, "cand")
			if tc.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("err = %v, want %q", err, tc.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text, workflows, errs, _ := CheckCandidate(file, "cand.yaml", Parse)
			if len(text) == 0 || !slices.Equal(workflows, tc.workflows) {
				t.Errorf("workflows %v, want %v", workflows, tc.workflows)
			}
			if got := strings.Join(errs, "\n"); (tc.errs == "") != (got == "") || !strings.Contains(got, tc.errs) {
				t.Errorf("errors %q, want %q", got, tc.errs)
			}
		})
	}
}
