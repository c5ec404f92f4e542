package flow

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// task runs a state's task and follows the first branch its result
// string matches (reference 003). It reports whether the run moved on.
func (f *flow) task(ctx context.Context, s *chain.State) bool {
	decidedBy := ""
	if f.take != "" {
		// resume --take STATE retries a failed task
		f.take, decidedBy = "", "caller"
	} else if !f.deeper() {
		return false
	}
	return f.taskWith(ctx, s, decidedBy)
}

// taskWith runs the state's task, taken as decidedBy says, and follows
// its branch.
func (f *flow) taskWith(ctx context.Context, s *chain.State, decidedBy string) bool {
	retry := []response.Link{response.TaskRetry(s)}
	f.beforeTask(s)
	f.entering = record.SubEntry{State: s.Name, Transition: s.Name, DecidedBy: decidedBy}
	sr, ok := f.runExecutor(ctx, s.Task)
	retry[0] = f.WithReruns(retry[0], s.Task)
	if !ok && f.status == record.Paused {
		return false // at a decision inside the workflow the task runs
	}
	if !ok && ctx.Err() != nil {
		// a task that finished before the interrupt is still recorded
		// below, so a resume does not run it again
		f.stop(record.Interrupted, "interrupted", retry)
		return false
	}
	result, branchable := f.taskResult(s.Task, sr)
	if !ok && s.OnFailure != "" {
		// on_failure leads a failed task's run on (a task chain's form)
		return f.moved(record.TransitionRecord{From: s.Name, Transition: s.Name, To: s.OnFailure, Result: "failed", Step: sr, DecidedBy: decidedBy, Vars: f.failedVars(s.Task)}, retry)
	}
	if !ok && !branchable {
		f.fail(f.taskFailure(s, sr), retry)
		return false
	}
	var b *chain.Branch
	for _, br := range s.Branches {
		if br.Take(result, f.traversed) {
			b = br
			break
		}
	}
	switch {
	case b == nil:
		f.fail(fmt.Sprintf("state %s: no branch matches the task's result %q (add a default branch)", s.Name, result), retry)
		return false
	case !ok && b.Operator == chain.OpDefault:
		// a failure is branched on only where a branch names it
		f.fail(f.taskFailure(s, sr), retry)
		return false
	}
	rec := record.TransitionRecord{From: s.Name, Transition: s.Name, To: b.Goto, Result: result, Step: sr, DecidedBy: decidedBy}
	if ok {
		rec.Vars = f.outputVars(s.Task)
		f.mergeContext(s.Task)
	}
	if cp := b.Compose; cp != nil {
		v, err := f.compose(s.Task, cp)
		if err != nil {
			f.fail(fmt.Sprintf("state %s: compose %s: %v", s.Name, cp.WithVar, err), retry)
			return false
		}
		f.Vars.Set(cp.WithVar, v)
		if rec.Vars == nil {
			rec.Vars = map[string]record.SavedValue{}
		}
		rec.Vars[cp.WithVar] = record.SavedValue{Text: v.Text, Data: v.Data}
	}
	return f.moved(rec, retry)
}

// taskResult is the string a task's branches match (reference 003): an
// agent step's finish reason or chosen keyword, a command's ok, an http
// step's status code, a transform's value; and "failed" for a failed task
// of any kind, which only a branch naming it takes. branchable says
// whether the task has a result to branch on.
func (f *flow) taskResult(s *chain.Step, sr *record.StepResult) (result string, branchable bool) {
	if record.Unfinished(sr.Status) {
		return "failed", true
	}
	if s.Handler != nil {
		return sr.Result, true
	}
	if k, ok := run.Kinds[s.Kind]; ok && k.Result != nil {
		return k.Result(f.Vars.Get, s, sr)
	}
	return "ok", true
}

// compose takes a value from the task's output with a JSONPath: one match
// is the value, several a list, none an error.
func (f *flow) compose(s *chain.Step, cp *chain.Compose) (interp.Value, error) {
	v, _ := f.Vars.Get(s.OutputVar)
	doc := v.Data
	if doc == nil {
		doc = interp.TextValue(v.Text).Data
	}
	if doc == nil {
		return interp.Value{}, fmt.Errorf("%s: the task's output is not JSON", cp.Strategy)
	}
	nodes := cp.Path().Select(doc)
	switch len(nodes) {
	case 0:
		return interp.Value{}, fmt.Errorf("%s matches nothing in the task's output", cp.Strategy)
	case 1:
		return interp.DataValue(nodes[0]), nil
	}
	return interp.DataValue([]any(nodes)), nil
}

// taskFailure says why a run ends at a state's failed task. A task its
// failure led to (on_failure, or a branch on "failed") that fails too is
// said after the failure that began it, as contenox says it: "state main:
// task failed: … (on_failure handler also failed: state explain: …)";
// once a task succeeds, an earlier failure is no longer said.
func (f *flow) taskFailure(s *chain.State, sr *record.StepResult) string {
	msg := taskFailedText(s.Name, sr)
	var root *record.TransitionRecord
	for i := len(f.history) - 1; i >= 0 && f.history[i].Result == "failed" && f.history[i].Step != nil; i-- {
		root = &f.history[i]
	}
	if root == nil {
		return msg
	}
	return fmt.Sprintf("%s (on_failure handler also failed: %s)", taskFailedText(root.From, root.Step), msg)
}

// taskFailedText says why a state's task failed and, when it was tried
// again, how often: "failed after N retries", as contenox says it.
func taskFailedText(state string, sr *record.StepResult) string {
	if sr.Attempts > 1 {
		return fmt.Sprintf("state %s: task failed after %d retries: %s", state, sr.Attempts-1, sr.Error)
	}
	return fmt.Sprintf("state %s: task failed: %s", state, sr.Error)
}
