package wfcheck

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/theory/jsonpath"
)

// A branch's compose: reference 003's JSONPath into a variable, and the
// earlier contenox merges it refuses, saying why.

// composeMergeStrategies are the compose strategies of earlier contenox
// versions, which merged with_var into the task's output.
var composeMergeStrategies = []string{"override", "merge_chat_histories", "append_string_to_chat_history"}

// compose checks a branch's compose and compiles its JSONPath; the
// variable it stores is then one the workflow produces.
func (v *checker) compose(prefix string, b *chain.Branch) {
	cp := b.Compose
	if slices.Contains(composeMergeStrategies, cp.Strategy) {
		// with_var is then the variable merged in, not one to store: one
		// error says so, not a second about its name
		v.d.Errorf(b.Pos, "%s: compose.strategy %q (with_var %q) is not supported: it is an earlier contenox strategy that merged the variable %s into the task's output (override: an object's fields; merge_chat_histories, append_string_to_chat_history: a conversation's messages); chainrun has no such merge, and compose now stores a JSONPath of the output in with_var, as reference 003 defines it", prefix, cp.Strategy, cp.WithVar, cp.WithVar)
		return
	}
	if !chain.IsIdentifier(cp.WithVar) || cp.WithVar == "input" || cp.WithVar == "item" || cp.WithVar == "context" {
		v.d.Errorf(b.Pos, "%s: compose.with_var %q: a variable name is letters, digits and '_' (not input, item or context)", prefix, cp.WithVar)
	}
	expr, ok := strings.CutPrefix(cp.Strategy, "json_path:")
	if !ok {
		why := ""
		if cp.Strategy == "" {
			// contenox's auto strategy (compose_test.go
			// TestUnit_BranchComposeAutoStrategy) picked a merge by type
			why = " (compose needs a strategy; an earlier contenox compose without one merged with_var into the task's output by its type, where reference 003's stores a JSONPath of the output in with_var, and the two cannot both hold)"
		}
		v.d.Errorf(b.Pos, "%s: compose.strategy %q: use json_path:$.field%s", prefix, cp.Strategy, why)
		return
	}
	p, err := jsonpath.Parse(strings.TrimSpace(expr))
	if err != nil {
		v.d.Errorf(b.Pos, "%s: compose.strategy: %q is not a valid JSONPath: %v", prefix, expr, err)
		return
	}
	cp.SetPath(p)
	v.SetVar(cp.WithVar)
}
