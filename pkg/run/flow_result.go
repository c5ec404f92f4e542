package run

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// conclude sets the result's status, the steps in the order they ran,
// the output (the context, or the variable output names) and reference
// 000's response: state, trace, context, guidance, links.
func (f *flow) conclude(_ context.Context, res *Result) {
	res.Status, res.Error, res.Steps = f.status, f.failure, f.steps
	res.Usage.Add(f.decisionUsage)
	wr := &WorkflowResult{State: f.state, Outcome: f.outcome, Chain: f.trace, Context: f.context, Links: f.links}
	if wr.Chain == nil {
		wr.Chain = []ChainEntry{}
	}
	for i := range wr.Chain {
		wr.Chain[i].Result = f.mask(wr.Chain[i].Result)
	}
	if wr.Links == nil {
		wr.Links = []Link{}
	}
	if s := f.w.State(f.state); s != nil {
		wr.Guidance = f.guidance(s, f.offered(s))
	}
	if f.status == Paused {
		wr.Queues = f.queues()
	}
	if d := decisionDeadline(f.w.State(f.state), f.arrived); f.status == Paused && !d.IsZero() {
		wr.Deadline = d.UTC().Format(time.RFC3339)
	}
	if f.within != nil && f.status != Succeeded {
		// the decision (or failure) is inside a workflow a step runs
		wr.Within, wr.Deadline = f.within, f.subDeadline
		if f.status == Paused {
			wr.Guidance = f.subGuidance
		}
	}
	if f.secrets != nil {
		wr.Context, _ = f.maskValue(wr.Context).(map[string]any)
	}
	res.WorkflowResult = wr
	if res.Status == Succeeded && len(f.w.Cap.Outputs) > 0 && f.c.Output == "" {
		out, err := f.capabilityOutput()
		if err != nil {
			res.Status, res.Error = Failed, err.Error()
			f.status = Failed
			return
		}
		res.Output = out
		return
	}
	if res.Status == Succeeded {
		res.Output = f.output()
	}
}

// output is what a succeeded workflow prints: its `output` variable;
// without one, its context, or, when nothing was merged into the context,
// the value the last executor or task produced (a workflow whose tasks
// only set variables prints its last result, not {}).
func (f *flow) output() any {
	if f.c.Output != "" && f.c.Output != contextVar {
		if v, ok := f.st.get(f.c.Output); ok {
			return v.Public()
		}
		return nil
	}
	if len(f.context) == 0 && f.c.Output == "" && f.lastOutput != "" {
		if v, ok := f.st.get(f.lastOutput); ok {
			return v.Public()
		}
	}
	return f.context
}

// maskRecord hides secret input values in a saved transition.
func (f *flow) maskRecord(rec TransitionRecord) TransitionRecord {
	if f.secrets == nil {
		return rec
	}
	vars := make(map[string]SavedValue, len(rec.Vars))
	for k, v := range rec.Vars {
		vars[k] = f.maskedValue(v)
	}
	rec.Vars = vars
	rec.Result = f.mask(rec.Result)
	if rec.Context != nil {
		masked, _ := f.maskValue(rec.Context).(map[string]any)
		for k, v := range masked {
			if !reflect.DeepEqual(v, rec.Context[k]) {
				rec.MaskedContext = append(rec.MaskedContext, k)
			}
		}
		sort.Strings(rec.MaskedContext)
		rec.Context = masked
	}
	if rec.Step != nil {
		sr := *rec.Step
		sr.maskTexts(f.mask)
		rec.Step = &sr
	}
	return rec
}

// outputVars are the variables an executor set, for the saved record.
func (f *flow) outputVars(e *chain.Step) map[string]SavedValue {
	out := map[string]SavedValue{}
	for _, name := range append([]string{e.OutputVar, e.OutputVar + "_status"}, handlerVars(e)...) {
		if v, ok := f.st.get(name); ok {
			out[name] = SavedValue{Text: v.Text, Data: v.Data}
		}
	}
	return out
}

// mergeContext merges a cli (or script) executor's JSON object output
// into context,
// and what a task chain task's hooks recorded (mergeHooks).
func (f *flow) mergeContext(e *chain.Step) {
	if e.Handler != nil {
		f.mergeHooks()
		return
	}
	if e.Kind != chain.KindCLI && e.Kind != chain.KindScript {
		return
	}
	v, ok := f.st.get(e.OutputVar)
	if !ok {
		return
	}
	obj, ok := v.Data.(map[string]any)
	if !ok {
		return
	}
	merged := maps.Clone(f.context)
	maps.Copy(merged, obj)
	f.setContext(merged)
}

// offered are the state's transitions the call's links name.
func (f *flow) offered(s *chain.State) []*chain.Transition {
	var out []*chain.Transition
	for _, l := range f.links {
		if t := s.Transition(l.Transition); t != nil && l.Blocked == "" {
			out = append(out, t)
		}
	}
	return out
}

// blockedLinks are, under linkFilter: all, the state's transitions that
// cannot be taken now and are not among the links offered, each with why.
func (f *flow) blockedLinks(s *chain.State, offered []Link) []Link {
	if f.w.Filter(s) != chain.LinkFilterAll {
		return nil
	}
	var out []Link
	for _, t := range s.Transitions {
		if slices.ContainsFunc(offered, func(l Link) bool { return l.Transition == t.Name }) || t.Actor == chain.ActorDeterministic {
			continue
		}
		why := f.whyNot(s, t)
		if why == "" {
			why = "not viable now"
		}
		l := linkOf(t)
		l.Blocked = why
		out = append(out, l)
	}
	return out
}

func linksOf(ts []*chain.Transition) []Link {
	out := make([]Link, len(ts))
	for i, t := range ts {
		out[i] = linkOf(t)
	}
	return out
}

// linkOf is the link that takes t, with the arguments it cannot be
// taken without, so that every hint made of it can be followed.
func linkOf(t *chain.Transition) Link {
	return Link{Transition: t.Name, Title: t.DisplayTitle(), Actor: actorLink(t.Actor), Args: t.NeededArgs()}
}

// retryOf is the link that takes t again after it failed.
func retryOf(t *chain.Transition) Link {
	l := linkOf(t)
	l.Title = "Retry: " + t.DisplayTitle()
	return l
}

// RetryLink is the link that takes again what a workflow was running at
// state when it stopped unfinished (a failure, an interrupt, a crash): the
// state's task, or its transition named name, whose executor ran. ok is
// false when the state has neither.
func RetryLink(w *chain.Workflow, state, name string) (l Link, ok bool) {
	s := w.State(state)
	switch {
	case s == nil:
		return Link{}, false
	case s.Task != nil && s.Name == name:
		return taskRetry(s), true
	}
	if t := s.Transition(name); t != nil && t.Executor != nil {
		return transitionRetry(t), true
	}
	return Link{}, false
}

// transitionRetry is the link that runs a transition's executor again.
func transitionRetry(t *chain.Transition) Link {
	l := retryOf(t)
	// a fallback that must never repeat unconfirmed may have run too
	l.Rerun = t.Executor != nil && slices.ContainsFunc(append([]*chain.Step{t.Executor}, t.Executor.Fallbacks...), needsConfirmation)
	return l
}

// taskRetry is the link that runs a state's task again.
func taskRetry(s *chain.State) Link {
	return Link{Transition: s.Name, Title: "Retry: " + chain.Humanize(s.Name), Rerun: needsConfirmation(s.Task)}
}

// actorLink is the actor a link shows: who it waits for.
func actorLink(actor string) string {
	if actor == chain.ActorDeterministic {
		return ""
	}
	return actor
}

// SortedLinkNames lists the transitions of links in order, for messages.
func SortedLinkNames(links []Link) []string {
	out := make([]string, len(links))
	for i, l := range links {
		out[i] = l.Transition
	}
	sort.Strings(out)
	return out
}

// waitingFor is what a pause's progress line lists: the links' names,
// each with the arguments it needs ("file (ticket, level)").
func waitingFor(links []Link) string {
	sorted := slices.Clone(links)
	slices.SortFunc(sorted, func(a, b Link) int { return strings.Compare(a.Transition, b.Transition) })
	out := make([]string, len(sorted))
	for i, l := range sorted {
		out[i] = l.Transition
		if len(l.Args) > 0 {
			names := make([]string, len(l.Args))
			for j, a := range l.Args {
				names[j] = a.Name
			}
			out[i] += " (" + strings.Join(names, ", ") + ")"
		}
	}
	return "waiting for: " + strings.Join(out, ", ")
}
