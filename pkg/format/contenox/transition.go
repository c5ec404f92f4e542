package contenox

import (
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/wfyaml"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// This file reads a contenox task's transition into its state's branches.

// transition reads a task's transition; a task without one ends the run.
// contenox takes a default branch only when no other matches, wherever it
// is written: the defaults go last.
func (tc *taskChain) transition(s *chain.State, v *yaml.Node, prefix string) {
	end := []*chain.Branch{{Operator: chain.OpDefault, Goto: chain.End, Pos: s.Pos}}
	if v == nil {
		s.Branches = end
		s.FieldPos["transition"] = s.Pos
		return
	}
	v = yamlpos.Deref(v)
	tc.dropAlerts(v, prefix)
	s.FieldPos["transition"] = yamlpos.Of(v)
	if v.Kind == yaml.MappingNode && yamlpos.ValueOf(v, "branches") == nil {
		// a task without branches ends the chain (its on_failure still
		// leads a failure on)
		yamlpos.CheckKeys(tc.d, v, prefix+"transition: ", yamlpos.KeysOf[chain.BranchTransition]())
		if on := yamlpos.ValueOf(v, "on_failure"); on != nil && on.Value != "" {
			s.OnFailure, s.FieldPos["on_failure"] = on.Value, yamlpos.Of(on)
		}
		s.Branches = end
		return
	}
	wfyaml.DecodeBranches(tc.d, s, v, prefix)
	if len(s.Branches) == 0 {
		s.Branches = end
	}
	var defaults []*chain.Branch
	kept := s.Branches[:0]
	for _, b := range s.Branches {
		if b.Goto == "" {
			b.Goto = chain.End
		}
		tc.olderOperator(b, prefix)
		if b.When == olderToolCall {
			// reference 003 and contenox before 1.0 spell the result
			// tool-call; the engine gives tool_call
			tc.d.Warnf(b.Pos, "%swhen %q is the older spelling of %q, the result a model task that asked for tools gives: read as %q", prefix, olderToolCall, ResultToolCall, ResultToolCall)
			b.When = ResultToolCall
		}
		switch b.Operator {
		case chain.OpDefault:
			defaults = append(defaults, b)
			continue
		case chain.OpEdgeTraversed:
			if n, err := strconv.Atoi(strings.TrimSpace(b.When)); err == nil && n > 0 {
				tc.budgets += n
			}
		}
		kept = append(kept, b)
	}
	s.Branches = append(kept, defaults...)
}

// olderToolCall is reference 003's spelling of ResultToolCall.
const olderToolCall = "tool-call"

// escapeBraces makes text literal in a chainrun template: contenox's
// system instructions and prompts are plain text, so a brace in them
// never names a variable.
func escapeBraces(text string) string {
	return strings.ReplaceAll(text, "{", `\{`)
}
