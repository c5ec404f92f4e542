package run

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// routing is what the routers of a DAG run decided: the steps their
// routes leave out (with why) and those they chose.
type routing struct {
	out    map[string]string
	chosen map[string]bool
}

// applyRoute records the route a router chose: the steps it chose, and
// those listed only in its other routes, left out.
func (x *Execution) applyRoute(s *chain.Step, route string, chosen, left []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.routed.out == nil {
		x.routed.out, x.routed.chosen = map[string]string{}, map[string]bool{}
	}
	for _, id := range chosen {
		x.routed.chosen[id] = true
	}
	for _, id := range left {
		if _, already := x.routed.out[id]; !already {
			x.routed.out[id] = fmt.Sprintf("not on route %s of router %s", route, s.ID)
		}
	}
}

// routedOut says why a step is skipped by the routers, if it is: a route
// left it out, or every step it depends on was left out and no route
// chose it. A step it skips leaves its dependents in the same case.
func (x *Execution) routedOut(s *chain.Step) (string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.routed.out == nil {
		return "", false
	}
	if why, ok := x.routed.out[s.ID]; ok {
		return why, true
	}
	if x.routed.chosen[s.ID] || len(s.DependsOn) == 0 {
		return "", false
	}
	for _, dep := range s.DependsOn {
		if _, out := x.routed.out[dep]; !out {
			return "", false
		}
	}
	why := "every step it depends on was left out by a router"
	x.routed.out[s.ID] = why
	return why, true
}

// skipRouted records a step a router left out: skipped, its output empty
// (absent, to an OCC file's references, as OCC leaves it unset).
func (x *Execution) skipRouted(s *chain.Step, why string) *record.StepResult {
	x.SetOutput(s, interp.Value{Absent: s.Reading().LooseReferences})
	sr := &record.StepResult{ID: s.ID, Status: record.StepSkipped, Reason: why}
	x.Emit(event.Event{Type: event.StepFinished, Step: s.ID, Kind: string(s.Kind), Status: record.StepSkipped, Detail: why})
	x.journal(s, sr)
	return sr
}

// evaluateAgain carries out an evaluator's on_fail: retry: while its
// verdict is FAIL and retries are left, it runs retry_target again with
// the evaluation added to its prompt (and the steps between it and the
// evaluator, which read its output), then judges again. The result
// counts every evaluation and attempt.
func (x *Execution) evaluateAgain(ctx context.Context, s *chain.Step, again func(*chain.Step, string) (string, int), sr *record.StepResult, exit bool) (*record.StepResult, bool) {
	if sr.Decision == "" {
		return sr, exit
	}
	sr.Evaluations = 1
	for n := 1; sr.Status == record.StepSucceeded && ctx.Err() == nil; n++ {
		target, retries := again(s, sr.Decision)
		if target == "" || n > retries {
			break
		}
		x.Emit(event.Event{Type: event.StepAttempt, Step: s.ID, Attempt: n + 1, Status: event.Retrying,
			Detail: fmt.Sprintf("evaluation FAIL: running %s again with it (retry %d of %d)", target, n, retries)})
		note := fmt.Sprintf("\n\n[Evaluation of your previous answer by step %s: FAIL]\n%s\nFix what it points out and answer again.", s.ID, strings.TrimSpace(sr.Answer))
		if err := x.rerun(ctx, s, target, note); err != nil {
			sr.Status, sr.Error = record.StepFailed, err.Error()
			x.Emit(event.Event{Type: event.StepFinished, Step: s.ID, Kind: string(s.Kind), Status: record.StepFailed, Error: sr.Error})
			return sr, false
		}
		next, nextExit := x.RunStep(ctx, s)
		next.Evaluations = sr.Evaluations + 1
		next.Attempts += sr.Attempts
		next.Usage = addUsage(sr.Usage, next.Usage)
		sr, exit = next, nextExit
	}
	return sr, exit
}

// rerun runs an evaluator's retry_target again, with note added to its
// prompt, then every step between it and the evaluator, in dependency
// order. Their results add up with their earlier ones.
func (x *Execution) rerun(ctx context.Context, ev *chain.Step, target, note string) error {
	g := x.Chain.Graph()
	for _, wave := range g.Waves() {
		for _, id := range wave {
			if id != target && !(g.DependsOn(id, target) && g.DependsOn(ev.ID, id)) {
				continue
			}
			s := x.Chain.Step(id)
			sr, _ := x.runStepNoted(ctx, s, map[bool]string{true: note}[id == target])
			x.mu.Lock()
			if prev := x.results[id]; prev != nil {
				sr.Attempts += prev.Attempts
				sr.Usage = addUsage(prev.Usage, sr.Usage)
			}
			x.results[id] = sr
			x.mu.Unlock()
			x.journal(s, sr)
			if record.Unfinished(sr.Status) {
				return fmt.Errorf("step %s, run again for the evaluation, failed: %s", id, sr.Error)
			}
		}
	}
	return nil
}

// addUsage is the sum of two steps' model use (nil when neither has any).
func addUsage(a, b *record.Usage) *record.Usage {
	if a == nil {
		return b
	}
	sum := *a
	if b != nil {
		sum.Add(*b)
	}
	return &sum
}

// gatePause is a DAG run's response when it pauses at gates: the first
// gate as its state, its question as the goal, the decisions each gate
// waits for, and the first deadline.
func (x *Execution) gatePause() *response.WorkflowResult {
	ids := make([]string, 0, len(x.waiting))
	for id := range x.waiting {
		ids = append(ids, id)
	}
	order := x.Chain.Steps
	sort.Slice(ids, func(i, j int) bool {
		return slices.IndexFunc(order, func(s *chain.Step) bool { return s.ID == ids[i] }) < slices.IndexFunc(order, func(s *chain.Step) bool { return s.ID == ids[j] })
	})
	wr := &response.WorkflowResult{State: ids[0], Chain: []response.ChainEntry{}, Context: map[string]any{}, Links: resume.GateLinks(x.Chain, ids)}
	if q := x.waiting[ids[0]].question; q != "" {
		wr.Guidance = &response.Guidance{Goal: q}
	}
	var first time.Time
	for _, id := range ids {
		if limit := x.waiting[id].limit; limit > 0 {
			if d := x.waiting[id].since.Add(limit); first.IsZero() || d.Before(first) {
				first = d
			}
		}
	}
	if !first.IsZero() {
		wr.Deadline = first.UTC().Format(time.RFC3339)
	}
	return wr
}
