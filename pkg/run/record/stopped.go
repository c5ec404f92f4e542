package record

import (
	"context"
	"errors"
)

// StopCause is why a run cancelled its own running steps: a step failed,
// or a step's early_exit_if held. It is the cause of the context those
// steps run under, so every step stopped by it — whatever it was doing:
// a command, a pre_tool, a model request, a tool call, a called chain —
// says the same thing, and a called chain's steps say it too. An
// interrupt (Ctrl-C, SIGTERM) carries no StopCause.
type StopCause struct {
	Failed    string // the step whose failure stopped the run
	EarlyExit string // the step whose early_exit_if ended the run
}

func (c *StopCause) Error() string {
	if c.EarlyExit != "" {
		return "cancelled: early exit after step " + c.EarlyExit
	}
	return "cancelled: step " + c.Failed + " failed"
}

// Stopped says what became of a step stopped while running (ctx is done):
// skipped after an early exit, cancelled after another step's failure,
// failed with "interrupted" after an interrupt. Go's own words for a
// cancelled context never reach a user.
func Stopped(ctx context.Context) (status StepStatus, errText, reason string) {
	var c *StopCause
	switch {
	case !errors.As(context.Cause(ctx), &c):
		return StepFailed, "interrupted", ""
	case c.EarlyExit != "":
		return StepSkipped, "", c.Error()
	}
	return StepCancelled, c.Error(), ""
}

// StopText is why ctx ended, in the words of a step's result: for what a
// stopped step reports of its parts (a tool call, a decision).
func StopText(ctx context.Context) string {
	status, errText, reason := Stopped(ctx)
	if status == StepSkipped {
		return reason
	}
	return errText
}

// Unfinished reports whether a step's status means it did not do its
// work: it failed, or was cancelled because another step failed.
func Unfinished(s StepStatus) bool {
	return s == StepFailed || s == StepCancelled
}
