package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
)

// A parallel step runs its branches at once inside one step (mcp-flowgate's
// parallel executor): the run sees one step, one transition, whatever
// the branches do. Its output is {branches, summary}; it fails when its
// join is not met, naming the first branch that failed.
func init() {
	register(chain.KindParallel, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			return x.parallel(ctx, s, sc)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			j := s.JoinRule()
			var lines []string
			if f := s.FanOut; f != nil {
				lines = append(lines, fmt.Sprintf("  for each of %s: %s", f.ForEach, v.nestedAction(f.Do)))
			}
			for i, b := range s.Branches {
				lines = append(lines, fmt.Sprintf("  branch %d (%s): %s", i+1, b.Kind, v.nestedAction(b)))
			}
			p.Action = fmt.Sprintf("parallel, join %s, on failure %s:\n%s", joinName(j), onFailure(s), strings.Join(lines, "\n"))
		},
	})
}

type parallelDepthKey struct{}

// nesting is how deep parallel steps are nested where a branch runs,
// and the smallest max_recursion_depth of those around it.
type nesting struct{ depth, limit int }

// branchRun is one branch: its step, what it reads, and how it ended.
type branchRun struct {
	step  *chain.Step
	sc    scope
	value Value
	usage Usage
	err   error
	// cancelled is a branch stopped, or never started, because the
	// others decided the join.
	cancelled bool
	// skipped is a step whose condition was false: it succeeded
	// without running.
	skipped bool
}

// parallel runs the branches, at most max_concurrency at once, and
// decides the join as they finish: bail stops the others at the first
// failure; a join met or out of reach stops them too.
func (x *execution) parallel(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	nest, inside := ctx.Value(parallelDepthKey{}).(nesting)
	if !inside || s.RecursionDepth() < nest.limit {
		nest.limit = s.RecursionDepth()
	}
	if nest.depth >= nest.limit {
		return outcome{}, &permanentError{fmt.Errorf("parallel steps nest %d deep, more than max_recursion_depth %d", nest.depth+1, nest.limit)}
	}
	runs, err := x.branchRuns(s, sc)
	if err != nil {
		return outcome{}, err
	}
	n := len(runs)
	if n >= chain.UngovernedBranches && s.MaxConcurrency == 0 {
		return outcome{}, &permanentError{fmt.Errorf("%d branches without max_concurrency: from %d branches on, set max_concurrency", n, chain.UngovernedBranches)}
	}
	start := x.l.now()
	bctx, cancel := context.WithCancel(context.WithValue(ctx, parallelDepthKey{}, nesting{nest.depth + 1, nest.limit}))
	defer cancel()
	if s.TotalTimeoutMS > 0 {
		var stop context.CancelFunc
		bctx, stop = context.WithTimeout(bctx, time.Duration(s.TotalTimeoutMS)*time.Millisecond)
		defer stop()
	}
	limit := s.MaxConcurrency
	if limit <= 0 || limit > n {
		limit = max(n, 1)
	}
	slots := make(chan struct{}, limit)
	finished := make(chan int, n)
	var inFlight, most atomic.Int64
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { finished <- i }()
			select {
			case slots <- struct{}{}:
			case <-bctx.Done():
				runs[i].cancelled = true
				return
			}
			defer func() { <-slots }()
			if bctx.Err() != nil {
				runs[i].cancelled = true
				return
			}
			now := inFlight.Add(1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			x.runInner(bctx, &runs[i])
			inFlight.Add(-1)
		}()
	}
	j := s.JoinRule()
	var ok, failed int
	for range n {
		r := &runs[<-finished]
		switch {
		case r.cancelled:
		case r.err == nil:
			ok++
		case bctx.Err() != nil && ctx.Err() == nil && !errors.Is(bctx.Err(), context.DeadlineExceeded):
			// stopped by the join, not failed on its own
			r.cancelled = true
		default:
			failed++
		}
		if decided(j, s, n, ok, failed) {
			cancel()
		}
	}
	wg.Wait()
	out, verdict := summarize(s, runs, start, x.l.now(), most.Load())
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	if verdict != "succeeded" {
		return out, &permanentError{fmt.Errorf("%s", failureText(s, runs, verdict, bctx))}
	}
	return out, nil
}

// branchRuns are the branches to run: the static list, or one do: per
// item of for_each that where keeps, reading it as {item} and $.branch.
func (x *execution) branchRuns(s *chain.Step, sc scope) ([]branchRun, error) {
	if f := s.FanOut; f != nil {
		list := f.ForEachList().Resolve(sc.document())
		items, isList := list.([]any)
		if !isList && list != nil {
			return nil, &permanentError{fmt.Errorf("branches.for_each %s is not a list (it is %s)", f.ForEach, Clip(TextOf(list), 40))}
		}
		if err := CheckItems("branches.for_each "+f.ForEach, len(items)); err != nil {
			return nil, err
		}
		var runs []branchRun
		for i, item := range items {
			if w := f.Filter(); w != nil {
				keep, err := w.Truthy(map[string]any{"value": item, "index": i})
				if err != nil {
					return nil, &permanentError{fmt.Errorf("branches.where %q on item %d: %v", f.Where, i, err)}
				}
				if !keep {
					continue
				}
			}
			b := *f.Do
			b.ID = fmt.Sprintf("%s[%d]", s.ID, len(runs))
			bsc := sc.with("item", DataValue(item)).with("branch", DataValue(map[string]any{"value": item, "index": i}))
			bsc.keySuffix = branchKey(len(runs))
			runs = append(runs, branchRun{step: &b, sc: bsc})
		}
		return runs, nil
	}
	runs := make([]branchRun, len(s.Branches))
	for i, b := range s.Branches {
		bsc := sc
		bsc.keySuffix = branchKey(i)
		runs[i] = branchRun{step: b, sc: bsc}
	}
	return runs, nil
}

// runBranch runs one branch's attempts under its own retry and timeout,
// as a step of its own in the run's events, and returns how it ended as
// its journal saves it.
func (x *execution) runBranch(ctx context.Context, r *branchRun) StepResult {
	b := r.step
	start := x.l.now()
	x.emit(event.Event{Time: start, Type: event.StepStarted, Step: b.ID, Kind: string(b.Kind), Model: x.firstModel(b)})
	status, reason, attempts := StepSucceeded, "", 0
	if cond := b.C().Condition; cond != nil {
		holds, err := cond.Holds(r.sc.exprEnv(cond.Names))
		switch {
		case err != nil:
			r.err = fmt.Errorf("condition: %v", err)
		case !holds:
			status, reason, r.skipped = StepSkipped, "condition is false: "+b.Condition, true
		}
	}
	if r.err == nil && status == StepSucceeded {
		out, n, err := x.attempts(ctx, b, r.sc)
		r.value, r.usage, r.err, attempts = out.value, out.usage, err, n
		for i, fb := range b.Fallbacks {
			if r.err == nil || ctx.Err() != nil {
				break
			}
			// mcp-flowgate runs a branch's and a pipeline step's own
			// reliability.fallback as a transition's (runReliably)
			x.emit(event.Event{Type: event.FallbackSelected, Step: b.ID, Kind: string(fb.Kind), Candidate: i + 1, Error: r.err.Error(), Detail: fb.Who()})
			out, n, err = x.attempts(ctx, fb, r.sc)
			r.value, r.usage, r.err, attempts = out.value, out.usage, err, attempts+n
		}
	}
	e := event.Event{Type: event.StepFinished, Step: b.ID, Kind: string(b.Kind), Status: status, Detail: reason,
		DurationMS: x.l.now().Sub(start).Milliseconds()}
	if r.err != nil {
		e.Status, e.Error = StepFailed, r.err.Error()
		if ctx.Err() != nil {
			e.Status, e.Error = StepCancelled, ""
		}
	}
	x.emit(e)
	return StepResult{ID: b.ID, Status: e.Status, Error: x.mask(e.Error), Reason: x.mask(reason), Attempts: attempts, DurationMS: e.DurationMS}
}

// decided reports whether the join's verdict is known before every
// branch finished: bail's first failure, any's first success, a
// threshold met or out of reach.
func decided(j *chain.Join, s *chain.Step, n, ok, failed int) bool {
	if failed > 0 && onFailure(s) == chain.OnFailureBail {
		return true
	}
	left := n - ok - failed
	switch j.Mode {
	case chain.JoinAny:
		return ok >= 1
	case chain.JoinAtLeast:
		return ok >= j.AtLeast || ok+left < j.AtLeast
	case chain.JoinPercent:
		need := (j.Percent*n + 99) / 100
		return ok >= need || ok+left < need
	}
	return false
}

// summarize builds the step's output, mcp-flowgate's {branches, summary},
// and the join's verdict: succeeded, failed or threshold_not_met.
func summarize(s *chain.Step, runs []branchRun, start, end time.Time, most int64) (outcome, string) {
	n := len(runs)
	var ok, failed, cancelled int
	first := -1
	branches := make([]any, n)
	var total outcome
	for i, r := range runs {
		total.usage.Add(r.usage)
		b := map[string]any{"index": i}
		switch {
		case r.cancelled:
			cancelled++
			b["ok"], b["error"] = false, map[string]any{"code": "cancelled", "message": "stopped: the join was decided"}
		case r.err != nil:
			failed++
			if first < 0 {
				first = i
			}
			b["ok"], b["error"] = false, errorEntry(r.err)
		default:
			ok++
			b["ok"], b["output"] = true, r.value.Public()
			if r.skipped {
				b["skipped"] = true
			}
		}
		branches[i] = b
	}
	j := s.JoinRule()
	verdict := "failed"
	switch j.Mode {
	case chain.JoinAll:
		if ok == n {
			verdict = "succeeded"
		}
	case chain.JoinAny:
		if ok >= 1 {
			verdict = "succeeded"
		}
	case chain.JoinAtLeast, chain.JoinPercent:
		need := j.AtLeast
		if j.Mode == chain.JoinPercent {
			need = (j.Percent*n + 99) / 100
		}
		verdict = "threshold_not_met"
		if ok >= need {
			verdict = "succeeded"
		}
	case chain.JoinExpression:
		// its value counts as a bare guard's: "$.ok_count" holds when
		// any branch succeeded (mcp-flowgate)
		holds, err := j.Expr.Truthy(map[string]any{"n": n, "ok_count": ok, "failed_count": failed, "cancelled_count": cancelled, "branches": branches})
		if err == nil && holds {
			verdict = "succeeded"
		}
	}
	if n == 0 {
		verdict = "succeeded"
	}
	summary := map[string]any{"n": n, "ok_count": ok, "failed_count": failed, "cancelled_count": cancelled,
		"durationMs": end.Sub(start).Milliseconds(), "max_in_flight_observed": most, "join": j.Mode, "verdict": verdict}
	if first >= 0 {
		summary["first_failure_index"] = first
	}
	total.value = DataValue(map[string]any{"branches": branches, "summary": summary})
	return total, verdict
}

// errorEntry is how the output of a parallel or pipeline step tells a
// branch's or a step's failure: {code, message}, the code timeout or
// failed.
func errorEntry(err error) map[string]any {
	code := "failed"
	if strings.Contains(err.Error(), "timed out") {
		code = "timeout"
	}
	return map[string]any{"code": code, "message": err.Error()}
}

// nestedAction is the first line a dry run shows for a step written
// inside another (a branch, a pipeline's step).
func (v planView) nestedAction(b *chain.Step) string {
	sub := PlannedStep{}
	if k, ok := kinds[b.Kind]; ok && k.plan != nil {
		k.plan(v, b, &sub)
	}
	line := FirstLine(sub.Action)
	for i, fb := range b.Fallbacks {
		// a fallback runs only when the one before failed past its retries
		line += fmt.Sprintf("; else fallback %d (%s): %s", i+1, fb.Kind, v.nestedAction(fb))
	}
	return line
}

// failureText says why a parallel step failed: its join, the counts, and
// the first branch that failed.
func failureText(s *chain.Step, runs []branchRun, verdict string, bctx context.Context) string {
	var ok int
	firstErr := ""
	for i, r := range runs {
		switch {
		case r.cancelled:
		case r.err != nil && firstErr == "":
			firstErr = fmt.Sprintf("; branch %d (%s) failed: %s", i+1, r.step.Kind, FirstLine(r.err.Error()))
		case r.err == nil:
			ok++
		}
	}
	msg := fmt.Sprintf("join %s not met (%s): %d of %d branches succeeded%s", joinName(s.JoinRule()), verdict, ok, len(runs), firstErr)
	if errors.Is(bctx.Err(), context.DeadlineExceeded) {
		msg += fmt.Sprintf("; total_timeout_ms %d passed", s.TotalTimeoutMS)
	}
	return msg
}

func joinName(j *chain.Join) string {
	switch j.Mode {
	case chain.JoinAtLeast:
		return fmt.Sprintf("at_least %d", j.AtLeast)
	case chain.JoinPercent:
		return fmt.Sprintf("percent %d", j.Percent)
	case chain.JoinExpression:
		return fmt.Sprintf("expression %q", j.Expr.Source)
	}
	return j.Mode
}

func onFailure(s *chain.Step) string {
	if s.OnBranchFailure == "" {
		return chain.OnFailureBail
	}
	return s.OnBranchFailure
}
