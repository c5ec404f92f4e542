package flow

import (
	"maps"
	"strconv"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// traversed counts the moves along an edge the run has made, replayed
// ones included (edge_traversed_at_least, {{edge_count:a->b}}).
func (f *flow) traversed(e chain.Edge) int {
	n := 0
	for _, h := range f.history {
		if h.Hook && h.From == h.To {
			continue // a state's onEnter: no move
		}
		if h.From == e.From && h.To == e.To {
			n++
		}
	}
	return n
}

// beforeTask sets what a task reads besides the variables steps set: the
// counters {{edge_count:a->b}} reads, and, for a task chain's task,
// previous_output, the output (and conversation) of the task that ran
// before it, which a task without input_var reads.
func (f *flow) beforeTask(s *chain.State) {
	for name, e := range f.w.Counters {
		f.Vars.Set(name, interp.TextValue(strconv.Itoa(f.traversed(e))))
	}
	if s.Task.Handler == nil || f.lastOutput == "" {
		return
	}
	for _, name := range []string{f.lastOutput, record.ChatVar(f.lastOutput)} {
		if v, ok := f.Vars.Get(name); ok {
			f.Vars.Set(previousVar(name, f.lastOutput), v)
		} else {
			f.Vars.Del(previousVar(name, f.lastOutput))
		}
	}
}

// previousVar is where beforeTask copies name, a variable of the task
// that ran last (its output var last).
func previousVar(name, last string) string {
	if name == last {
		return record.PreviousOutput
	}
	return record.ChatVar(record.PreviousOutput)
}

// handlerVars are the variables a task chain's task sets besides its
// output, saved with its transition: its conversation, and on failure
// its error.
func handlerVars(e *chain.Step) []string {
	if e.Handler == nil {
		return nil
	}
	return []string{record.ChatVar(e.OutputVar), e.OutputVar + "_error", record.LastError}
}

// failedVars are the variables a task chain's failed task leaves for the
// task its on_failure leads to (its input as its output, its error), and
// what its hooks recorded before it failed goes into the context.
func (f *flow) failedVars(e *chain.Step) map[string]record.SavedValue {
	if e.Handler == nil {
		return nil
	}
	f.mergeHooks()
	return f.outputVars(e)
}

// mergeHooks merges what a task's hooks recorded (the mission's plan and
// reports, the oracle's verdict) into the context, each under its hook's
// name: the run's result and its saved transitions carry it.
func (f *flow) mergeHooks() {
	v, ok := f.Vars.Get(record.HookVar)
	if !ok {
		return
	}
	f.Vars.Del(record.HookVar)
	pending, _ := v.Data.(map[string]any)
	if len(pending) == 0 {
		return
	}
	merged := maps.Clone(f.context)
	maps.Copy(merged, pending)
	f.setContext(merged)
}
