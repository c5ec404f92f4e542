package text

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// TestResumeHintFollowsTheChainFile: an interrupted or failed run whose
// chain file was edited since it began is resumed with --reload when the
// file would be taken, and told why not otherwise; an unedited one is
// resumed as it is.
func TestResumeHintFollowsTheChainFile(t *testing.T) {
	res := &record.Result{RunID: "20261122-190352-417-739eaf", Name: "deploy", Status: record.Interrupted, Error: "interrupted"}
	cases := []struct {
		edit store.Edit
		want string
		not  string
	}{
		{store.Edit{}, "resume it with: chainrun resume 20261122-190352-417-739eaf", "changed"},
		{store.Edit{File: "chains/d.yaml", Reloadable: true}, "chainrun resume 20261122-190352-417-739eaf --reload\n(chains/d.yaml changed since this run began: --reload runs it", ""},
		{store.Edit{File: "chains/d.yaml", Invalid: true}, "is not valid now: chainrun validate chains/d.yaml", "--reload\n"},
		{store.Edit{File: "chains/d.yaml"}, "no longer has the run's steps", "--reload\n"},
	}
	for _, c := range cases {
		for _, msg := range []string{Interrupted(res, c.edit), Failure(res, false, c.edit)} {
			if !strings.Contains(msg, c.want) || c.not != "" && strings.Contains(msg, c.not) {
				t.Errorf("%+v: %q, want %q and not %q", c.edit, msg, c.want, c.not)
			}
		}
	}
}
