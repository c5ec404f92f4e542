package run

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// The services of Attempt for the tasks of a contenox task chain (steps
// with a chain.Handler, run by pkg/kind/contenox): a task reads and sets
// the variables the chain's tasks share besides their outputs
// (record.ChatVar, HookVar), reads the run's input, and its hooks keep records that
// outlive the task.

// RegisterHandlerRunner sets how a step with a handler (a task of a
// contenox task chain, or a hook tool's call) runs and shows in a dry
// run, whatever its kind: pkg/kind/contenox calls it once, in its init,
// so the engine names no handler.
func RegisterHandlerRunner(r Runner) {
	if handlerKind.Run != nil {
		panic("run: the runner of handler steps registered twice")
	}
	handlerKind = r
}

// handlerKind runs every step with a handler (RegisterHandlerRunner).
var handlerKind Runner

// execHandler runs a step with a handler once.
func (x *Execution) execHandler(ctx context.Context, s *chain.Step, sc Scope, t *tries) (outcome, error) {
	if handlerKind.Run == nil {
		return outcome{}, &permanentError{fmt.Errorf("handler %q is not one chainrun can run", s.Handler.HandlerName())}
	}
	return x.runKind(handlerKind, ctx, s, sc, t)
}

// Vars is the run's variables: a task sets the ones the chain's tasks
// share (its conversation, its error, last_error) beside its output.
func (a *Attempt) Vars() *Values { return a.x.Vars }

// Input is the run's input of that name ("" none): a task with no
// earlier output reads the chain's input, and a hook's record starts
// from it.
func (a *Attempt) Input(name string) string { return a.sc.Vars.inputs[name] }

// Values is every value the step can name at once: the run's variables
// but the engine's own (a conversation, what hooks recorded) and the
// context, then the values bound in the step's scope. A task chain's Go
// templates read them all as one map.
func (a *Attempt) Values() map[string]interp.Value {
	vars := map[string]interp.Value{}
	a.sc.Vars.mu.RLock()
	for k, v := range a.sc.Vars.vars {
		if !record.InternalVar(k) && k != response.ContextVar {
			vars[k] = v
		}
	}
	a.sc.Vars.mu.RUnlock()
	for k, v := range a.sc.local {
		vars[k] = v
	}
	return vars
}

// Exclusive runs f while no other step of the run runs f's like: a
// hook's tools read and rewrite its record, which the calls of one model
// turn may reach at once.
func (a *Attempt) Exclusive(f func()) {
	a.x.mu.Lock()
	defer a.x.mu.Unlock()
	f()
}
