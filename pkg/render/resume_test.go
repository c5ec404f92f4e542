package render

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/run"
)

// TestResumeCommandConfirmsWhatTheLinkNeeds: a link's command confirms
// its own non-idempotent step and those inside it, and acknowledges what
// its guards wait for.
func TestResumeCommandConfirmsWhatTheLinkNeeds(t *testing.T) {
	for _, tc := range []struct {
		l    run.Link
		want string
	}{
		{run.Link{Transition: "go"}, "chainrun resume R --take go"},
		{run.Link{Transition: "go", Rerun: true}, "chainrun resume R --take go --rerun go"},
		{run.Link{Transition: "go", Reruns: []string{"go[0]", "go[2]"}}, "chainrun resume R --take go --rerun 'go[0]' --rerun 'go[2]'"},
		{run.Link{Transition: "ship", Rerun: true, Reruns: []string{"ship/sx[1]"}}, "chainrun resume R --take ship --rerun ship --rerun 'ship/sx[1]'"},
		{run.Link{Transition: "ack", Acknowledge: []string{"deploy.rollout"}}, "chainrun resume R --ack deploy.rollout --take ack"},
	} {
		if got := ResumeCommand("R", tc.l); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.l, got, tc.want)
		}
	}
}
