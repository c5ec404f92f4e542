package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/store"
)

// someNewRefusal stands for an error type added later: declaring its
// class is all it takes to exit 2.
type someNewRefusal struct{}

func (someNewRefusal) Error() string    { return "refused" }
func (someNewRefusal) NothingRan() bool { return true }

func TestExitCodeFromTheErrorsClass(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		commandRan bool
		want       int
	}{
		{"no error", nil, true, exitOK},
		{"a plain failure", errors.New("boom"), true, exitFailed},
		{"a usage error", usagef("bad"), true, exitUsage},
		{"a new class of refusal", someNewRefusal{}, true, exitUsage},
		{"wrapped", fmt.Errorf("context: %w", someNewRefusal{}), true, exitUsage},
		{"a validation error", &chain.ValidationError{}, true, exitUsage},
		{"a chain not found", &chain.NotFoundError{}, true, exitUsage},
		{"bad inputs", &run.InputError{}, true, exitUsage},
		{"a step that cannot run", &run.PreflightError{Kind: run.BadModel}, true, exitUsage},
		{"a rerun to confirm", &run.RerunError{Steps: []string{"s"}}, true, exitUsage},
		{"a bad --take", &run.TakeError{}, true, exitUsage},
		{"a run held by another process", &store.LockedError{}, true, exitUsage},
		{"a run not found", &store.NotFoundError{}, true, exitUsage},
		{"cobra refused the command line", errors.New("whatever cobra says"), false, exitUsage},
		{"a result already printed", &exitStatus{code: exitPaused}, true, exitPaused},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err, tt.commandRan); got != tt.want {
			t.Errorf("%s: exit %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestCobraRefusalsExitTwoWithAHint(t *testing.T) {
	for _, args := range [][]string{
		{"no-such-command"},
		{"run", "--no-such-flag"},
		{"validate", "--max-parallel"},
		{"list", "--output"},
	} {
		io, _, _, errOut := iostreams.Test()
		if code := Execute(context.Background(), io, args); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
		if !strings.Contains(errOut.String(), "chainrun --help") {
			t.Errorf("%v: no usage hint in %q", args, errOut)
		}
	}
}
