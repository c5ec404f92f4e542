package run

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// The services of Attempt for the kinds that run other steps inside their
// own (OCC's loop, merge and debate; parallel, pipeline, chain): they ask
// a model step, fan out over items or run an inner step through the
// engine, which keeps their attempts, journal lines and model use as it
// keeps a step's.

// Ask asks model step m (a merge's, a debate's, a summary's) once, as an
// agent step asks, over this attempt's values. Its model use is in the
// Outcome, for the asking step to count as its own.
func (a *Attempt) Ask(ctx context.Context, m *chain.Step) (Outcome, error) {
	o, err := a.x.ask(ctx, m, a.sc)
	return o.outer(), err
}

// ask asks a model step once, its model use being the asking step's.
func (x *Execution) ask(ctx context.Context, m *chain.Step, sc Scope) (outcome, error) {
	t := &tries{}
	out, err := x.runKind(Kinds[chain.KindAgent], ctx, m, sc, t)
	out.usage = t.usage
	if out.model == "" {
		out.model = t.model
	}
	return out, err
}

// Fan is how FanOut runs a list's items: the step run per item, the
// attempt it runs with (Bind: this one with item i of n bound), the most
// at once (0: as many as the run's pool allows), when to stop early and
// whether a failed item fails the whole.
type Fan struct {
	Each      *chain.Step
	Bind      func(a *Attempt, item interp.Value, i, n int) *Attempt
	Limit     int
	Until     *chain.Expression
	KeepGoing bool
}

// FanOut runs f.Each once per item, as a for_each runs its items: in
// parallel, within the run's one pool of --max-parallel slots; a failed
// item stops the others unless f.KeepGoing. The Outcome's value is the
// list of the items' outputs, in item order, and its usage theirs.
func (a *Attempt) FanOut(ctx context.Context, items []interp.Value, f Fan) (Outcome, error) {
	bind := func(sc Scope, item interp.Value, i, n int) Scope {
		b := *a
		b.sc = sc
		return f.Bind(&b, item, i, n).sc
	}
	o, _, err := a.x.fanOut(ctx, items, a.sc, fan{each: f.Each, bind: bind, limit: f.Limit, until: f.Until, keepGoing: f.KeepGoing})
	return o.outer(), err
}

// Plan fills into as the kind of step s does, for a step written inside
// another (a loop's template, a branch, a pipeline's step).
func (p PlanView) Plan(s *chain.Step, into *record.PlannedStep) {
	if k, ok := Kinds[s.Kind]; ok && k.Plan != nil {
		k.Plan(p, s, into)
	}
}

// Inner is how a step written inside another ended: its value, its model
// use, its error, and whether its condition skipped it (a success that
// ran nothing).
type Inner struct {
	Value   interp.Value
	Usage   record.Usage
	Err     error
	Skipped bool
}

// RunInner runs b, a step written inside this one (a parallel's branch, a
// pipeline's step), over this attempt's values, as a step of its own in
// the run's events and journal (STEP[i]): kept as saved when it finished
// before, marked begun when it is not idempotent, run with its own
// retries and fallbacks, and saved.
func (a *Attempt) RunInner(ctx context.Context, b *chain.Step) Inner {
	r := branchRun{step: b, sc: a.sc}
	a.x.runInner(ctx, &r)
	return Inner{Value: r.value, Usage: r.usage, Err: r.err, Skipped: r.skipped}
}

// Branch is the attempt of branch i of a parallel step: the idempotency
// key its requests send is the step's with the branch's segment, as
// mcp-flowgate segments its branches' keys.
func (a *Attempt) Branch(i int) *Attempt {
	b := *a
	b.sc.keySuffix = branchKey(i)
	return &b
}
