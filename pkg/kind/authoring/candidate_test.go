package authoring

import (
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

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
			text, workflows, errs, _ := CheckCandidate(file, "cand.yaml", chain.Parse)
			if len(text) == 0 || !slices.Equal(workflows, tc.workflows) {
				t.Errorf("workflows %v, want %v", workflows, tc.workflows)
			}
			if got := strings.Join(errs, "\n"); (tc.errs == "") != (got == "") || !strings.Contains(got, tc.errs) {
				t.Errorf("errors %q, want %q", got, tc.errs)
			}
		})
	}
}
