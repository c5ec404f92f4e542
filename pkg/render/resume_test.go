package render

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// TestResumeCommandNamesTheArgumentsALinkNeeds holds that the command a
// view prints for a link carries a quoted placeholder for each argument
// the link needs, beside its --rerun and --ack, so that it runs pasted
// once the placeholders are filled in.
func TestResumeCommandNamesTheArgumentsALinkNeeds(t *testing.T) {
	for _, tc := range []struct {
		link run.Link
		want string
	}{
		{run.Link{Transition: "go"}, "chainrun resume R1 --take go"},
		{run.Link{Transition: "file", Args: []chain.NeededArg{{Name: "ticket", Type: "string"}, {Name: "n", Type: "integer"}}},
			"chainrun resume R1 --take file --arg 'ticket=<string>' --arg 'n=<integer>'"},
		{run.Link{Transition: "ship", Rerun: true, Args: []chain.NeededArg{{Name: "env", Enum: []any{"prod", "stage"}}}},
			"chainrun resume R1 --take ship --rerun ship --arg 'env=<prod|stage>'"},
		{run.Link{Transition: "ok", Acknowledge: []string{"runbook"}, Args: []chain.NeededArg{{Name: "who's"}}},
			"chainrun resume R1 --ack runbook --take ok --arg 'who'\\''s=<value>'"},
	} {
		if got := ResumeCommand("R1", tc.link); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.link, got, tc.want)
		}
	}
}
