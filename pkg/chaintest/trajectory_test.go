package chaintest

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/response"
)

func TestStatesCollapseAStateEnteredAgainAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		chain []response.ChainEntry
		state string
		want  []string
	}{
		{"no transition: the state it stands at", nil, "start", []string{"start"}},
		{"each target in order", []response.ChainEntry{{FromState: "a", ToState: "b"}, {FromState: "b", ToState: "a"}, {FromState: "a", ToState: "c"}}, "c", []string{"a", "b", "a", "c"}},
		{"an on-enter hook stays", []response.ChainEntry{{FromState: "a", ToState: "a"}, {FromState: "a", ToState: "b"}, {FromState: "b", ToState: "b"}}, "b", []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := statesOf(&response.WorkflowResult{State: tc.state, Chain: tc.chain})
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestToolsCalledForms(t *testing.T) {
	calls := []string{"Read", "Grep", "Read", "Edit"}
	for _, tc := range []struct {
		mode  string
		tools []string
		holds bool
	}{
		{"exact", []string{"Read", "Grep", "Read", "Edit"}, true},
		{"exact", []string{"Read", "Grep", "Edit"}, false},
		{"in_order", []string{"Read", "Edit"}, true},
		{"in_order", []string{"Read", "Read"}, true},
		{"in_order", []string{"Edit", "Read"}, false},
		{"set", []string{"Edit", "Grep", "Read"}, true},
		{"set", []string{"Edit", "Read"}, false},
		{"includes", []string{"Edit"}, true},
		{"includes", []string{"Bash"}, false},
	} {
		p := (&ToolsExpect{Mode: tc.mode, Tools: tc.tools}).problem(calls)
		if (p == "") != tc.holds {
			t.Errorf("%s %v: problem %q, want holds=%v", tc.mode, tc.tools, p, tc.holds)
		}
	}
}

func TestTurnsCountTheLoopNotItsRetries(t *testing.T) {
	o := &outcome{events: []event.Event{
		{Type: event.LLMCall, Step: "a", Turn: 1},
		{Type: event.LLMCall, Step: "a", Turn: 1, Status: event.Retrying},
		{Type: event.LLMCall, Step: "a", Turn: 2},
		{Type: event.LLMCall, Step: "b"},
		{Type: event.LLMCall, Step: "b"},
		{Type: event.LLMCall, Step: "c", Detail: "summary"},
	}}
	for id, want := range map[string]int{"a": 2, "b": 1, "c": 0, "d": 0} {
		if got := o.turns(id); got != want {
			t.Errorf("turns(%s) = %d, want %d", id, got, want)
		}
	}
}
