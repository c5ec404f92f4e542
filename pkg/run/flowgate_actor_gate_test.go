package run

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// actorGateWorkflow is human_only_config of mcp-flowgate's
// tests/common/invariants.rs (commit 443aa7a): a pending state whose
// approve transition is for a human and runs an executor; extra adds
// transitions of other actors beside it.
func actorGateWorkflow(extra string) string {
	return `version: '1'
workflows:
  approval:
    initialState: pending
    states:
      pending:
        goal: approve the change
        transitions:
          approve: {title: Approve, target: done, actor: human, executor: {kind: cli, command: echo, args: [approved]}, output: {approved_by: "$.output.text"}}
` + extra + `      done: {terminal: true}
      parked: {terminal: true}
`
}

// TestFlowgateActorGate ports invariants_actor_audit.rs
// (github.com/matt-cochran/mcp-flowgate, commit 443aa7a,
// crates/mcp-flowgate-core/tests/invariants_actor_audit.rs):
// actor_gate_rejects_agent_on_human_only_transition (an agent's submit of
// an actor: human transition is ACTOR_MISMATCH, the executor never runs,
// the workflow stays pending) and
// actor_gate_admits_human_on_human_only_transition (a human's completes
// it, the executor run once). chainrun knows no principal of a resume or
// an MCP call, so its agent is the model it asks (--agent-model): that
// model is never offered a human transition, and an answer naming one is
// not taken; the run pauses for a person, the executor not run. A person
// (the terminal's, or --take) takes it: the executor runs once.
func TestFlowgateActorGate(t *testing.T) {
	approve := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "approve"}`}}}
	for _, tc := range []struct {
		name, extra string
		asks        int // the model's calls
	}{
		{"human only: the model is not asked", "", 0},
		{"beside an agent's transition: the model names approve", "          park: {target: parked, actor: agent}\n", 3},
		{"beside an untagged one and a deterministic one that cannot run", "          park: {target: parked}\n          auto: {target: parked, actor: deterministic, condition: 'false'}\n", 3},
	} {
		t.Run(tc.name+": actor_gate_rejects_agent_on_human_only_transition", func(t *testing.T) {
			s := llmtest.New(approve, approve, approve)
			defer s.Close()
			res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil))).Run(context.Background(),
				Request{Chain: load(t, actorGateWorkflow(tc.extra)), AgentModel: "openai/m1"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Paused || res.State != "pending" || len(res.Chain) != 0 || res.Context["approved_by"] != nil || s.Count() != tc.asks {
				t.Fatalf("%s at %s, chain %v, context %v, %d model calls: %s", res.Status, res.State, res.Chain, res.Context, s.Count(), res.Error)
			}
			for _, r := range s.Requests() {
				// the enum of choose_transition is the agent's links alone
				if body := asJSON(t, r.Body); !strings.Contains(body, `"enum":["park"]`) {
					t.Errorf("the model was offered more than park: %s", body)
				}
			}
			if !slices.Contains(linkNames(res), "approve") {
				t.Errorf("the person's link is gone: %v", linkNames(res))
			}
		})
		t.Run(tc.name+": actor_gate_admits_human_on_human_only_transition", func(t *testing.T) {
			var asked response.Decision
			human := func(_ context.Context, d response.Decision) (response.Choice, bool, error) {
				asked = d
				return response.Choice{Transition: "approve"}, true, nil
			}
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, actorGateWorkflow(tc.extra)), Human: human})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Succeeded || res.State != "done" || len(res.Chain) != 1 || res.Chain[0].DecidedBy != "human" || asJSON(t, res.Context["approved_by"]) != `"approved"` {
				t.Fatalf("%s at %s, chain %+v, context %v: %s", res.Status, res.State, res.Chain, res.Context, res.Error)
			}
			if len(asked.Links) == 0 {
				t.Error("the person was not asked")
			}
			take, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, actorGateWorkflow(tc.extra)), Take: "approve"})
			if err != nil || take.Status != record.Succeeded || take.State != "done" || len(take.Chain) != 1 {
				t.Fatalf("--take approve: %v %+v", err, take)
			}
		})
	}
}
