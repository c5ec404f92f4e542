package run

import (
	"context"
	"errors"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// stopCause is why a run cancelled its own running steps: a step failed,
// or a step's early_exit_if held. It is the cause of the context those
// steps run under, so every step stopped by it — whatever it was doing:
// a command, a pre_tool, a model request, a tool call, a called chain —
// says the same thing, and a called chain's steps say it too. An
// interrupt (Ctrl-C, SIGTERM) carries no stopCause.
type stopCause struct {
	failed    string // the step whose failure stopped the run
	earlyExit string // the step whose early_exit_if ended the run
}

func (c *stopCause) Error() string {
	if c.earlyExit != "" {
		return "cancelled: early exit after step " + c.earlyExit
	}
	return "cancelled: step " + c.failed + " failed"
}

// stopped says what became of a step stopped while running (ctx is done):
// skipped after an early exit, cancelled after another step's failure,
// failed with "interrupted" after an interrupt. Go's own words for a
// cancelled context never reach a user.
func stopped(ctx context.Context) (status record.StepStatus, errText, reason string) {
	var c *stopCause
	switch {
	case !errors.As(context.Cause(ctx), &c):
		return record.StepFailed, "interrupted", ""
	case c.earlyExit != "":
		return record.StepSkipped, "", c.Error()
	}
	return record.StepCancelled, c.Error(), ""
}

// StopText is why ctx ended, in the words of a step's result: for what a
// stopped step reports of its parts (a tool call, a decision).
func StopText(ctx context.Context) string {
	status, errText, reason := stopped(ctx)
	if status == record.StepSkipped {
		return reason
	}
	return errText
}

// Unfinished reports whether a step's status means it did not do its
// work: it failed, or was cancelled because another step failed.
func Unfinished(s record.StepStatus) bool {
	return s == record.StepFailed || s == record.StepCancelled
}
