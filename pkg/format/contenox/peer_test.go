package contenox

import (
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// The contenox task engine's validation and routing tests, ported: each
// case names its source in github.com/contenox/runtime at commit
// 7d0a257f42ac, directory runtime/taskengine.

// TestContenoxValidateChain: what contenox's validateChain refuses,
// chainrun refuses when the chain loads.
func TestContenoxValidateChain(t *testing.T) {
	end := `"transition":{"branches":[{"operator":"default","when":"","goto":"end"}]}`
	ok := func(id string) string { return `{"id":"` + id + `","handler":"noop",` + end + `}` }
	chainOf := func(tasks ...string) string { return `{"id":"x","tasks":[` + strings.Join(tasks, ",") + `]}` }
	if _, err := parseChain("x.json", []byte(chainOf(ok("a"))), chain.Options{}); err != nil {
		t.Fatalf("dsl_contract_test.go TestUnit_ValidateChain_Tightening: a minimal chain: %v", err)
	}
	edge := func(e, when string) string {
		return chainOf(`{"id":"chat","handler":"noop","transition":{"branches":[{"operator":"edge_traversed_at_least","edge":"`+e+`","when":"`+when+`","goto":"run_tools"},{"operator":"default","goto":"end"}]}}`, ok("run_tools"))
	}
	tests := []struct{ source, src, want string }{
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/duplicate id", chainOf(ok("a"), ok("a")), `task id "a" is given twice`},
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/unknown handler", chainOf(`{"id":"a","handler":"chat_completon",` + end + `}`), `handler "chat_completon" is not one chainrun can run (did you mean chat_completion?)`},
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/empty operator", chainOf(`{"id":"a","handler":"noop","transition":{"branches":[{"when":"x","goto":"end"}]}}`), `operator is required`},
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/unknown operator", chainOf(`{"id":"a","handler":"noop","transition":{"branches":[{"operator":"eq","when":"x","goto":"end"}]}}`), `unknown operator "eq"`},
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/dangling goto", chainOf(`{"id":"a","handler":"noop","transition":{"branches":[{"operator":"default","goto":"ghost"}]}}`), `"ghost"`},
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/dangling onfail", chainOf(`{"id":"a","handler":"noop","transition":{"on_failure":"ghost","branches":[{"operator":"default","goto":"end"}]}}`), `on_failure "ghost" is not a state`},
		{"dsl_contract_test.go TestUnit_ValidateChain_Tightening/tools no block", chainOf(`{"id":"a","handler":"tools",` + end + `}`), `a tools task needs tools: {name, tool_name, args}`},
		{"edge_count_test.go TestUnit_EdgeTraversedAtLeast_RejectedByValidator/missing edge", edge("", "5"), `edge_traversed_at_least needs edge: "from->to"`},
		{"edge_count_test.go TestUnit_EdgeTraversedAtLeast_RejectedByValidator/malformed edge", edge("chat:run_tools", "5"), `edge_traversed_at_least needs edge: "from->to"`},
		{"edge_count_test.go TestUnit_EdgeTraversedAtLeast_RejectedByValidator/unknown source task", edge("ghost->run_tools", "5"), `"ghost" is not a state`},
		{"edge_count_test.go TestUnit_EdgeTraversedAtLeast_RejectedByValidator/unknown target task", edge("chat->ghost", "5"), `"ghost" is not a state`},
		{"edge_count_test.go TestUnit_EdgeTraversedAtLeast_RejectedByValidator/non-integer threshold", edge("chat->run_tools", "many"), `when "many" is not a count`},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			_, err := parseChain("x.json", []byte(tt.src), chain.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestContenoxOlderCompose: compose_test.go of contenox/runtime@7df6e1f640da
// (runtime/taskengine; TestUnit_BranchComposeOverride,
// TestUnit_BranchComposeAppendStringToChatHistory,
// TestUnit_BranchComposeMergeChatHistories) merges with_var into the
// task's output. Reference 003 defines compose the other way: a JSONPath
// of the output stored in with_var. The reference wins: these cases are
// refused, saying why; json_path composes run
// (TestBranchingEveryOperatorAndCompose in pkg/run).
//
// TestUnit_BranchComposeAutoStrategy (no strategy: a merge picked by
// type) is refused so too, and TestUnit_BranchComposeErrors'
// UnsupportedStrategy as contenox refuses it (the same cases stood in
// core/taskengine/compose_test.go of contenox/runtime@a8425cc1ce8c, on
// the task rather than the branch).
func TestContenoxOlderCompose(t *testing.T) {
	for strategy, want := range map[string]string{
		"":                 "an earlier contenox compose without one merged with_var into the task's output by its type",
		"invalid_strategy": `compose.strategy "invalid_strategy": use json_path:$.field`,
	} {
		src := `{"id":"x","tasks":[{"id":"task1","handler":"noop","transition":{"branches":[{"operator":"default","goto":"task2"}]}},
 {"id":"task2","handler":"noop","transition":{"branches":[{"operator":"default","goto":"end","compose":{"with_var":"task1","strategy":"` + strategy + `"}}]}}]}`
		if _, err := parseChain("x.json", []byte(src), chain.Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v", strategy, err)
		}
	}
	for _, strategy := range []string{"override", "append_string_to_chat_history", "merge_chat_histories"} {
		src := `{"id":"x","tasks":[{"id":"task1","handler":"noop","transition":{"branches":[{"operator":"default","goto":"task2"}]}},
 {"id":"task2","handler":"noop","transition":{"branches":[{"operator":"default","goto":"end","compose":{"with_var":"task1","strategy":"` + strategy + `"}}]}}]}`
		_, err := parseChain("x.json", []byte(src), chain.Options{})
		want := `"` + strategy + `" (with_var "task1") is not supported: it is an earlier contenox strategy that merged the variable task1 into the task's output`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v", strategy, err)
		}
	}
}

// TestContenoxDeclaredRoutes: route_test.go TestUnit_declaredRoutes_onlyEqualsBranches:
// a route task's labels are its equals branches' when values, in order,
// blank ones left out; default and edge budgets are no labels.
func TestContenoxDeclaredRoutes(t *testing.T) {
	src := `{"id":"x","tasks":[{"id":"r","handler":"route","transition":{"branches":[
 {"operator":"equals","when":"code_task","goto":"a"},{"operator":"equals","when":"question","goto":"b"},
 {"operator":"equals","when":"  ","goto":"blank"},{"operator":"default","when":"","goto":"fallback"},
 {"operator":"edge_traversed_at_least","when":"10","edge":"r->a","goto":"budget"}]}},
 {"id":"a","handler":"noop"},{"id":"b","handler":"noop"},{"id":"blank","handler":"noop"},{"id":"fallback","handler":"noop"},{"id":"budget","handler":"noop"}]}`
	l, err := parseChain("x.json", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := HandlerOf(l.Chain.Workflow.State("r").Task).Routes; !slices.Equal(got, []string{"code_task", "question"}) {
		t.Errorf("routes %v", got)
	}
}

// TestContenoxTransitionTokens: dsl_contract_test.go
// TestUnit_TransitionTokens_FrozenValues: the results branches match
// are contenox's tokens, and a failed task's transition is "failed".
func TestContenoxTransitionTokens(t *testing.T) {
	got := []string{ResultToolCall, ResultExecuted, ResultNoop, ResultNoCallsFound, ResultToolsExecuted}
	if !slices.Equal(got, []string{"tool_call", "executed", "noop", "no_calls_found", "tools_executed"}) {
		t.Errorf("tokens %v", got)
	}
}
