package run

import (
	"context"
	"maps"
	"reflect"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// WithRemote makes this engine a durable engine's driver: steps run
// through r.Step, checks that need the worker's configuration (models,
// callees, reruns) are left to whoever starts the run, agent decision
// points pause, and nothing is announced outside the event stream.
func WithRemote(r *task.Remote) Option { return func(l *Local) { l.Remote = r } }

// WithClock sets the engine's clock (a workflow's deterministic time).
func WithClock(now func() time.Time) Option { return func(l *Local) { l.Now = now } }

// taskValue is v as it travels.
func taskValue(v interp.Value) task.TaskValue {
	tv := task.TaskValue{Text: v.Text, Data: v.Data, JSON: v.JSON}
	tv.Parsed = v.Data != nil && reflect.DeepEqual(interp.TextValue(v.Text).Data, v.Data)
	return tv
}

// fromTask is a travelled value as the run had it.
func fromTask(tv task.TaskValue) interp.Value {
	if tv.Parsed {
		return interp.Value{Text: tv.Text, Data: interp.TextValue(tv.Text).Data, JSON: tv.JSON}
	}
	return interp.Value{Text: tv.Text, Data: record.WholeNumbers(tv.Data), JSON: tv.JSON}
}

// remoteStep hands a step to the durable engine and takes back what it
// did, as if it had run here.
func (x *Execution) remoteStep(ctx context.Context, s *chain.Step, note string) (*record.StepResult, bool) {
	t := task.StepTask{RunID: x.RunID, Chain: x.Chain.Name, Step: s.ID, Note: note, Vars: map[string]task.TaskValue{}, Fallback: s.FallbackNumber()}
	x.Vars.mu.RLock()
	t.Inputs, t.Typed = x.Vars.inputs, x.Vars.typed
	for name, v := range x.Vars.vars {
		t.Vars[name] = taskValue(v)
	}
	x.Vars.mu.RUnlock()
	t.MaxTokens, t.MaxCalls, t.MaxCostUSD = x.budgetLeft()
	done := x.Engine.Remote.Step(ctx, t)
	for name, v := range done.Vars {
		x.Vars.Set(name, fromTask(v))
	}
	for _, e := range done.Events {
		x.Engine.events.Emit(e)
		if x.Req.Events != nil {
			x.Req.Events.Emit(e)
		}
	}
	for _, w := range done.Warnings {
		x.Warn(w)
	}
	if done.Refused {
		x.markRefused(s.ID)
	}
	sr := done.Result
	sr.ExitCode, sr.ErrOut, sr.Result, sr.Answer = done.ExitCode, done.ErrOut, done.TaskResult, done.Answer
	x.spent(sr.Usage)
	return &sr, done.EarlyExit
}

// RunTask runs one step of c as a durable engine's task (an activity):
// the run's variables are t's, the step runs as it would here, and what
// it changed comes back. It never fails: a step that failed says so in
// its result.
func (l *Local) RunTask(ctx context.Context, c *chain.Chain, t task.StepTask) task.StepDone {
	s := task.TaskStep(c, t)
	if s == nil {
		return task.StepDone{Result: record.StepResult{ID: t.Step, Status: record.StepFailed, Error: "the chain has no step " + t.Step}}
	}
	st := newStore(t.Inputs)
	if st.inputs == nil {
		st.inputs = map[string]string{}
	}
	st.typed = t.Typed
	for name, v := range t.Vars {
		st.vars[name] = fromTask(v)
	}
	before := maps.Clone(st.vars)
	events := &collected{}
	x := l.newExecution(c, t.RunID, st, llm.NewCostBudget(t.MaxTokens, t.MaxCalls, t.MaxCostUSD, l.prices), Request{Events: events}, nil)
	x.attemptOnly = t.Attempt
	env, err := l.readDotenv(c, l.dir)
	if err != nil {
		return task.StepDone{Result: record.StepResult{ID: t.Step, Status: record.StepFailed, Error: err.Error()}}
	}
	x.setEnv(env)
	sr, exit := x.runStepNoted(ctx, s, t.Note)
	x.closeMCP()
	done := task.StepDone{Result: *sr, EarlyExit: exit, Events: events.list, Warnings: x.warnings, Refused: x.refused[s.ID],
		ExitCode: sr.ExitCode, ErrOut: sr.ErrOut, TaskResult: sr.Result, Answer: sr.Answer, Retry: x.retryLeft}
	for name, v := range st.vars {
		if old, ok := before[name]; !ok || !sameValue(old, v) {
			if done.Vars == nil {
				done.Vars = map[string]task.TaskValue{}
			}
			done.Vars[name] = taskValue(v)
		}
	}
	return done
}

// sameValue reports whether a variable kept its value (its text says
// it: Data is derived from the text or set with it).
func sameValue(a, b interp.Value) bool {
	return a.Text == b.Text && a.JSON == b.JSON && (a.Data == nil) == (b.Data == nil)
}

// collected keeps a task's events to hand them back with its result
// (a loop's items emit at once).
type collected struct {
	mu   sync.Mutex
	list []event.Event
}

func (c *collected) Emit(e event.Event) {
	c.mu.Lock()
	c.list = append(c.list, e)
	c.mu.Unlock()
}

// budgetLeft is what the run's budget has left for a task, from what
// the finished steps used (0: no cap).
func (x *Execution) budgetLeft() (tokens, calls int, cost float64) {
	maxTokens, maxCalls := budgetCaps(x.Chain, x.Req.MaxTokens)
	maxCost := costCap(x.Chain, x.Req.MaxCostUSD)
	x.mu.Lock()
	defer x.mu.Unlock()
	if maxCost > 0 {
		cost = max(maxCost-x.used.CostUSD, 1e-9) // spent: the next request is refused
	}
	if maxTokens > 0 {
		tokens = max(maxTokens-x.used.InputTokens-x.used.OutputTokens, 1)
	}
	if maxCalls > 0 {
		calls = max(maxCalls-x.used.LLMCalls, 1)
	}
	return tokens, calls, cost
}

// spent adds a task's model use to the run's.
func (x *Execution) spent(u *record.Usage) {
	if u == nil {
		return
	}
	x.mu.Lock()
	x.used.Add(*u)
	x.mu.Unlock()
}

// CheckInputs checks a request's inputs as a run would before anything
// runs (exit 2 naming the input), for an engine that starts the run
// elsewhere; the workers check models and callees where they run.
func CheckInputs(req Request) error {
	_, _, err := given.ResolveTyped(req.Chain, req.Inputs)
	return err
}
