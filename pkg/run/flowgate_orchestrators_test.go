package run

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// cognitiveArchitectures is mcp-flowgate's fixture repository of
// orchestrators (flow.*) and the capabilities (cap.*) they call, as
// commit 443aa7a (and every commit since 404f7b7) holds it under
// crates/mcp-flowgate-core/tests/fixtures/cognitive-architectures; the
// copy in cmd/testdata is byte for byte that tree.
var cognitiveArchitectures = filepath.Join("..", "..", "cmd", "testdata", "flowgate-v06",
	"crates", "mcp-flowgate-core", "tests", "fixtures", "cognitive-architectures")

// capShortCircuit stands in for every workflow step as mcp-flowgate's
// CapShortCircuit fixture executor does (flow_orchestrators_e2e.rs): the
// called capability does not run; the step returns, for each output of
// its snippet, a value its schema allows — the first of its enum, else
// one of its type ("fixture-value", 0, true, [], {}). The orchestrator's
// use.outputs then set its context from them.
func capShortCircuit(t *testing.T, lib *catalog.Library, called *[]string) StandIn {
	return func(_ context.Context, s *chain.Step) (Canned, bool) {
		if s.Kind != chain.KindWorkflow {
			return Canned{}, false
		}
		c, err := lib.FindWorkflow(s.Workflow().DefinitionID, filepath.Join(lib.Dir, "flowgate.repo.yaml"))
		if err != nil || c.Workflow == nil {
			t.Errorf("%s: %v", s.Workflow().DefinitionID, err)
			return Canned{Err: "no capability"}, true
		}
		*called = append(*called, s.Workflow().DefinitionID)
		out := map[string]any{}
		for _, o := range c.Workflow.Cap.Outputs {
			out[o.Name] = exampleOf(o.Raw)
		}
		return Canned{Data: out}, true
	}
}

// exampleOf is synthesize_one of flow_orchestrators_e2e.rs: a value the
// schema allows.
func exampleOf(schema map[string]any) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	switch schema["type"] {
	case "integer", "number":
		return 0
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	case "string", nil:
		return "fixture-value"
	}
	return nil
}

// TestFlowgateOrchestratorsWalkToDone ports flow_orchestrators_e2e.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-executors/tests/flow_orchestrators_e2e.rs; the same
// tests since 404f7b7): flow_add_feature_walks_to_terminal,
// flow_bugfix_from_error_log_walks_to_terminal,
// flow_safe_refactor_walks_to_terminal and
// flow_triage_issue_walks_to_terminal. Each orchestrator of the
// cognitive-architectures fixture starts with the test's input, every
// capability it calls short-circuited as the test's fixture executor
// does, and walks on its own to done, completed, in one call; the
// add-feature walk projects pr_url through every capability before it.
// The path of states each takes is the one its guards select from the
// synthesized outputs. The operator's config declares github_mcp, as the
// fixture's manifest says operators do (the short-circuit never reaches
// it).
func TestFlowgateOrchestratorsWalkToDone(t *testing.T) {
	for _, tc := range []struct {
		name   string
		inputs map[string]string
		calls  []string
		path   string
		check  func(t *testing.T, res *record.Result)
	}{
		{
			name:   "flow.add-feature",
			inputs: map[string]string{"feature_brief": "Add a /status endpoint", "base_ref": "main", "lexicon": "{}"},
			calls: []string{"cap.plan.draft", "cap.plan.vet", "cap.gate.human-signoff", "cap.implement.tdd-loop",
				"cap.plan.track-gaps", "cap.verify.workspace-green", "cap.review.adversarial", "cap.coordinate.pr-open"},
			path: "drafting_plan vetting_plan vetted_plan awaiting_signoff signoff_received implementing tracking_gaps verifying verified reviewing reviewed opening_pr done",
			check: func(t *testing.T, res *record.Result) {
				if url, _ := res.Context["pr_url"].(string); url == "" {
					t.Errorf("pr_url not projected: %v", res.Context)
				}
			},
		},
		{
			name:   "flow.bugfix-from-error-log",
			inputs: map[string]string{"error_log": "panicked at 'index out of bounds'", "base_ref": "main"},
			calls: []string{"cap.diagnose.parse-error", "cap.diagnose.reproduce", "cap.diagnose.localize", "cap.plan.fix",
				"cap.implement.scope-bounded", "cap.verify.regression-tests", "cap.review.adversarial", "cap.coordinate.pr-open"},
			path: "parsing reproducing localizing planning implementing verifying verified reviewing reviewed opening_pr done",
		},
		{
			name:   "flow.safe-refactor",
			inputs: map[string]string{"scope_description": `{"paths": ["src/foo"]}`, "base_ref": "main"},
			calls: []string{"cap.research.context-assemble", "cap.refactor.draft", "cap.test.baseline-snapshot",
				"cap.implement.scope-bounded", "cap.test.compare-baseline", "cap.review.adversarial", "cap.coordinate.pr-open"},
			path: "assembling_context drafting_refactor snapshotting implementing comparing compared reviewing reviewed opening_pr done",
		},
		{
			name:   "flow.triage-issue",
			inputs: map[string]string{"issue": `{"title": "Login button broken", "body": "..."}`},
			// route_is_ambiguous is a boolean, synthesized true: the walk
			// goes through the human disambiguation capability
			calls: []string{"cap.triage.classify-severity", "cap.triage.route-component", "cap.gate.human-disambiguate", "cap.coordinate.label-and-route"},
			path:  "classifying routing routed disambiguated applying done",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := chain.Options{Connections: map[string]*chain.Connection{
				"github_mcp": {Name: "github_mcp", Kind: chain.ConnMCP, Command: "github-mcp-server"},
			}}
			lib := &catalog.Library{Dir: cognitiveArchitectures, Opts: opts}
			c, err := lib.FindWorkflow(tc.name, filepath.Join(cognitiveArchitectures, "flowgate.repo.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var called []string
			j := &memJournal{}
			res, err := New(WithDir(t.TempDir()), WithWorkflows(lib.FindWorkflow), WithScripts(lib.FindScript),
				WithStandIn(capShortCircuit(t, lib, &called))).Run(context.Background(), Request{Chain: c, Inputs: tc.inputs, Journal: j})
			if err != nil {
				t.Fatalf("start(%s): %v", tc.name, err)
			}
			if res.Status != record.Succeeded || res.State != "done" {
				t.Fatalf("%s should walk to terminal 'done'; got state %s status %s: %s (called %v)", tc.name, res.State, res.Status, res.Error, called)
			}
			states := []string{c.Workflow.InitialState}
			for _, r := range j.transitions {
				if r.Within == "" && r.Enter == nil {
					states = append(states, r.To)
				}
			}
			if strings.Join(states, " ") != tc.path {
				t.Errorf("path\n got %s\nwant %s", strings.Join(states, " "), tc.path)
			}
			if strings.Join(called, " ") != strings.Join(tc.calls, " ") {
				t.Errorf("capabilities called\n got %v\nwant %v", called, tc.calls)
			}
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}
