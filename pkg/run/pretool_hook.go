package run

import (
	"context"
	"errors"

	"github.com/chainrun/chainrun/pkg/chain"
)

// PreToolsRunner runs a step's pre_tools, in order, before its body: it
// is given the step's attempt and returns it with each pre_tool's value
// bound under its inject_as. pkg/run/pretool registers it, so the engine
// knows pre_tools only as something run before a step, not their types.
type PreToolsRunner func(ctx context.Context, a *Attempt) (*Attempt, error)

// preToolsRunner is the registered runner of pre_tools.
var preToolsRunner PreToolsRunner

// RegisterPreTools sets the runner of pre_tools; pkg/run/pretool calls it
// in its init. A second call replaces the first.
func RegisterPreTools(r PreToolsRunner) { preToolsRunner = r }

// errNoPreTools: a step with pre_tools is run by a program that links no
// runner of them.
var errNoPreTools = errors.New("this program runs no pre_tools: it links no pre_tools runner (pkg/builtin)")

// preTools runs step s's pre_tools (none: sc as it is) through the
// registered runner and is sc with what they injected; a loop runs them
// per item, with {item}.
func (x *Execution) preTools(ctx context.Context, s *chain.Step, sc Scope) (Scope, error) {
	if len(s.PreTools) == 0 {
		return sc, nil
	}
	if preToolsRunner == nil {
		return sc, errNoPreTools
	}
	a, err := preToolsRunner(ctx, x.tryOf(s, sc, nil))
	if err != nil {
		return sc, err
	}
	return a.sc, nil
}
