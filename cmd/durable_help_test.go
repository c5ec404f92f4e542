package cmd

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// helpOf is the help chainrun prints for args.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	io, _, out, errOut := iostreams.Test()
	if code := Execute(context.Background(), io, append(args, "--help")); code != exitOK {
		t.Fatalf("%v --help: exit %d (%s)", args, code, errOut)
	}
	return out.String()
}

// The standard build's help shows nothing that only the Temporal build
// can do; the Temporal build's shows it all. The flags still parse, so a
// script written for either build gets the same answer it always did.
func TestHelpShowsTheDurableEngineOnlyWhenBuiltIn(t *testing.T) {
	commands := regexp.MustCompile(`(?m)^  (cancel|worker) `)
	flags := regexp.MustCompile(`--(engine|detach|temporal-address|namespace|task-queue)\b`)
	for _, built := range []bool{false, true} {
		saved := extension
		if built {
			extension = &Extension{}
		}
		root := helpOf(t)
		var seen []string
		for _, args := range [][]string{{"run"}, {"resume"}, {"runs"}, {"runs", "show"}, {"approvals"}} {
			seen = append(seen, flags.FindAllString(helpOf(t, args...), -1)...)
		}
		extension = saved
		if got := commands.FindAllString(root, -1); built != (len(got) == 2) {
			t.Errorf("built with Temporal %v: root help lists %q", built, got)
		}
		if built != (len(seen) > 0) {
			t.Errorf("built with Temporal %v: command help lists %q", built, seen)
		}
	}
	// still there, with the answer they always gave
	io, _, _, errOut := iostreams.Test()
	if code := Execute(context.Background(), io, []string{"cancel", "x"}); code != exitUsage || !strings.Contains(errOut.String(), "durable engine") {
		t.Errorf("cancel: exit %d %s", code, errOut)
	}
	io, _, _, errOut = iostreams.Test()
	if code := Execute(context.Background(), io, []string{"runs", "--engine", "temporal"}); code != exitUsage || !strings.Contains(errOut.String(), "built without the Temporal engine") {
		t.Errorf("runs --engine temporal: exit %d %s", code, errOut)
	}
}
