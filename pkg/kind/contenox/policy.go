package contenox

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/tools"
)

// commandPolicy is the policy a task's Bash calls are held to: its
// tools_policies of local_shell (none for a step that is no task).
func commandPolicy(s *chain.Step) tools.CommandPolicy {
	if s == nil || cx.HandlerOf(s) == nil {
		return tools.CommandPolicy{}
	}
	return tools.CommandPolicy{Allowed: cx.HandlerOf(s).AllowedCommands, Denied: cx.HandlerOf(s).DeniedCommands}
}

// askerOf is the task whose model made a conversation turn's tool calls
// (nil when the turn does not say, as in a conversation saved before it
// did).
func askerOf(c *chain.Chain, turn chatMsg) *chain.Step {
	if turn.By == "" || c.Workflow == nil {
		return nil
	}
	if st := c.Workflow.State(turn.By); st != nil {
		return st.Task
	}
	return nil
}

// refuseCall says why a model's call may not run, or "": a tool the task
// that asked was not offering, or a Bash command the policy refuses.
func refuseCall(asker *chain.Step, policy tools.CommandPolicy, call llm.ToolCall) string {
	if asker != nil && !slices.Contains(asker.Agent().Tools, call.Name) {
		offered := strings.Join(asker.Agent().Tools, ", ")
		if offered == "" {
			offered = "none"
		}
		return fmt.Sprintf("the model was not offered %s by task %s (its tools: %s)", call.Name, asker.ID, offered)
	}
	if call.Name != "Bash" || policy.Empty() {
		return ""
	}
	var args struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil {
		return "the policy cannot read the command: " + err.Error()
	}
	if err := policy.Check(args.Command); err != nil {
		return err.Error()
	}
	return ""
}

// warnUnapplied puts the task's tools_policies that chainrun does not
// apply in the run's warnings.
func warnUnapplied(a *run.Attempt) {
	s := a.Step()
	for _, p := range cx.HandlerOf(s).UnappliedPolicies {
		a.Warn(fmt.Sprintf("task %s: tools_policies.%s is not applied (chainrun applies local_shell's _allowed_commands and _denied_commands)", s.ID, p))
	}
}
