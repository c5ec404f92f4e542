package flow

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Conclude sets the result's status, the steps in the order they ran,
// the output (the context, or the variable output names) and reference
// 000's response: state, trace, context, guidance, links.
func (f *flow) Conclude(_ context.Context, res *record.Result) {
	res.Status, res.Error, res.Steps = f.status, f.Failure, f.steps
	res.Usage.Add(f.decisionUsage)
	wr := &response.WorkflowResult{State: f.state, Outcome: f.outcome, Chain: f.trace, Context: f.context, Links: f.links}
	if wr.Chain == nil {
		wr.Chain = []response.ChainEntry{}
	}
	for i := range wr.Chain {
		wr.Chain[i].Result = f.Mask(wr.Chain[i].Result)
	}
	if wr.Links == nil {
		wr.Links = []response.Link{}
	}
	if s := f.w.State(f.state); s != nil {
		wr.Guidance = f.guidance(s, f.offered(s))
	}
	if f.status == record.Paused {
		wr.Queues = f.queues()
	}
	if d := decisionDeadline(f.w.State(f.state), f.arrived); f.status == record.Paused && !d.IsZero() {
		wr.Deadline = d.UTC().Format(time.RFC3339)
	}
	if f.within != nil && f.status != record.Succeeded {
		// the decision (or failure) is inside a workflow a step runs
		wr.Within, wr.Deadline = f.within, f.subDeadline
		if f.status == record.Paused {
			wr.Guidance = f.subGuidance
		}
	}
	if f.Secrets != nil {
		wr.Context, _ = f.MaskValue(wr.Context).(map[string]any)
	}
	res.WorkflowResult = wr
	if res.Status == record.Succeeded && len(f.w.Cap.Outputs) > 0 && f.Chain.Output == "" {
		out, err := f.capabilityOutput()
		if err != nil {
			res.Status, res.Error = record.Failed, err.Error()
			f.status = record.Failed
			return
		}
		res.Output = out
		return
	}
	if res.Status == record.Succeeded {
		res.Output = f.output()
	}
}

// output is what a succeeded workflow prints: its `output` variable;
// without one, its context, or, when nothing was merged into the context,
// the value the last executor or task produced (a workflow whose tasks
// only set variables prints its last result, not {}).
func (f *flow) output() any {
	if f.Chain.Output != "" && f.Chain.Output != response.ContextVar {
		if v, ok := f.Vars.Get(f.Chain.Output); ok {
			return v.Public()
		}
		return nil
	}
	if len(f.context) == 0 && f.Chain.Output == "" && f.lastOutput != "" {
		if v, ok := f.Vars.Get(f.lastOutput); ok {
			return v.Public()
		}
	}
	return f.context
}

// maskRecord hides secret values (inputs, writeOnly arguments) in a
// saved transition.
func (f *flow) maskRecord(rec record.TransitionRecord) record.TransitionRecord {
	if f.Secrets == nil {
		return rec
	}
	vars := make(map[string]record.SavedValue, len(rec.Vars))
	for k, v := range rec.Vars {
		vars[k] = f.MaskedValue(v)
	}
	rec.Vars = vars
	rec.Result = f.Mask(rec.Result)
	if rec.Context != nil {
		masked, _ := f.MaskValue(rec.Context).(map[string]any)
		for k, v := range masked {
			if !reflect.DeepEqual(v, rec.Context[k]) {
				rec.MaskedContext = append(rec.MaskedContext, k)
			}
		}
		sort.Strings(rec.MaskedContext)
		rec.Context = masked
	}
	if rec.Args != nil {
		// a secret input passed on, or a writeOnly argument
		masked, _ := f.MaskValue(rec.Args).(map[string]any)
		rec.Args = masked
	}
	if rec.Step != nil {
		sr := *rec.Step
		sr.MaskTexts(f.Mask)
		rec.Step = &sr
	}
	return rec
}

// outputVars are the variables an executor set, for the saved record.
func (f *flow) outputVars(e *chain.Step) map[string]record.SavedValue {
	out := map[string]record.SavedValue{}
	for _, name := range append([]string{e.OutputVar, e.OutputVar + "_status"}, handlerVars(e)...) {
		if v, ok := f.Vars.Get(name); ok {
			out[name] = record.SavedValue{Text: v.Text, Data: v.Data}
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
	v, ok := f.Vars.Get(e.OutputVar)
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
func (f *flow) blockedLinks(s *chain.State, offered []response.Link) []response.Link {
	if f.w.Filter(s) != chain.LinkFilterAll {
		return nil
	}
	var out []response.Link
	for _, t := range s.Transitions {
		if slices.ContainsFunc(offered, func(l response.Link) bool { return l.Transition == t.Name }) || t.Actor == chain.ActorDeterministic {
			continue
		}
		why := f.whyNot(s, t)
		if why == "" {
			why = "not viable now"
		}
		l := response.LinkOf(t)
		l.Blocked = why
		out = append(out, l)
	}
	return out
}

func linksOf(ts []*chain.Transition) []response.Link {
	out := make([]response.Link, len(ts))
	for i, t := range ts {
		out[i] = response.LinkOf(t)
	}
	return out
}

// waitingFor is what a pause's progress line lists: the links' names,
// each with the arguments it needs ("file (ticket, level)").
func waitingFor(links []response.Link) string {
	sorted := slices.Clone(links)
	slices.SortFunc(sorted, func(a, b response.Link) int { return strings.Compare(a.Transition, b.Transition) })
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
