package render

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestResumeCommandConfirmsWhatTheLinkNeeds: a link's command confirms
// its own non-idempotent step and those inside it, and acknowledges what
// its guards wait for.
func TestResumeCommandConfirmsWhatTheLinkNeeds(t *testing.T) {
	for _, tc := range []struct {
		l    response.Link
		want string
	}{
		{response.Link{Transition: "go"}, "chainrun resume R --take go"},
		{response.Link{Transition: "go", Rerun: true}, "chainrun resume R --take go --rerun go"},
		{response.Link{Transition: "go", Reruns: []string{"go[0]", "go[2]"}}, "chainrun resume R --take go --rerun 'go[0]' --rerun 'go[2]'"},
		{response.Link{Transition: "ship", Rerun: true, Reruns: []string{"ship/sx[1]"}}, "chainrun resume R --take ship --rerun ship --rerun 'ship/sx[1]'"},
		{response.Link{Transition: "ack", Acknowledge: []string{"deploy.rollout"}}, "chainrun resume R --ack deploy.rollout --take ack"},
	} {
		if got := ResumeCommand("R", tc.l); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.l, got, tc.want)
		}
	}
}

// TestResumeCommandNamesTheArgumentsALinkNeeds holds that the command a
// view prints for a link carries a quoted placeholder for each argument
// the link needs, beside its --rerun and --ack, so that it runs pasted
// once the placeholders are filled in.
func TestResumeCommandNamesTheArgumentsALinkNeeds(t *testing.T) {
	for _, tc := range []struct {
		link response.Link
		want string
	}{
		{response.Link{Transition: "go"}, "chainrun resume R1 --take go"},
		{response.Link{Transition: "file", Args: []chain.NeededArg{{Name: "ticket", Type: "string"}, {Name: "n", Type: "integer"}}},
			"chainrun resume R1 --take file --arg 'ticket=<string>' --arg 'n=<integer>'"},
		{response.Link{Transition: "ship", Rerun: true, Args: []chain.NeededArg{{Name: "env", Enum: []any{"prod", "stage"}}}},
			"chainrun resume R1 --take ship --rerun ship --arg 'env=<prod|stage>'"},
		{response.Link{Transition: "ok", Acknowledge: []string{"runbook"}, Args: []chain.NeededArg{{Name: "who's"}}},
			"chainrun resume R1 --ack runbook --take ok --arg 'who'\\''s=<value>'"},
		{response.Link{Transition: "go", Reruns: []string{"go[1]"}, Args: []chain.NeededArg{{Name: "t", Type: "string"}}},
			"chainrun resume R1 --take go --rerun 'go[1]' --arg 't=<string>'"},
	} {
		if got := ResumeCommand("R1", tc.link); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.link, got, tc.want)
		}
	}
}
