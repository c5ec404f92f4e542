package compose

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A parallel step runs its branches at once inside one step (mcp-flowgate's
// parallel executor): the run sees one step, one transition, whatever
// the branches do. Its output is {branches, summary}; it fails when its
// join is not met, naming the first branch that failed.
func init() {
	run.Register(chain.KindParallel, run.Runner{
		Run: parallel,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			j := s.JoinRule()
			var lines []string
			if f := s.Parallel().FanOut; f != nil {
				lines = append(lines, fmt.Sprintf("  for each of %s: %s", f.ForEach, nestedAction(v, f.Do)))
			}
			for i, b := range s.Parallel().Branches {
				lines = append(lines, fmt.Sprintf("  branch %d (%s): %s", i+1, b.Kind, nestedAction(v, b)))
			}
			p.Action = fmt.Sprintf("parallel, join %s, on failure %s:\n%s", joinName(j), onFailure(s), strings.Join(lines, "\n"))
		},
	})
}

type parallelDepthKey struct{}

// nesting is how deep parallel steps are nested where a branch runs,
// and the smallest max_recursion_depth of those around it.
type nesting struct{ depth, limit int }

// branch is one branch: its step, the attempt it runs with, and how it
// ended.
type branch struct {
	step *chain.Step
	a    *run.Attempt
	run.Inner
	// cancelled is a branch stopped, or never started, because the
	// others decided the join.
	cancelled bool
}

// parallel runs the branches, at most max_concurrency at once, and
// decides the join as they finish: bail stops the others at the first
// failure; a join met or out of reach stops them too.
func parallel(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	nest, inside := ctx.Value(parallelDepthKey{}).(nesting)
	if !inside || s.RecursionDepth() < nest.limit {
		nest.limit = s.RecursionDepth()
	}
	if nest.depth >= nest.limit {
		return run.Outcome{}, run.Permanent(fmt.Errorf("parallel steps nest %d deep, more than max_recursion_depth %d", nest.depth+1, nest.limit))
	}
	runs, err := branches(a)
	if err != nil {
		return run.Outcome{}, err
	}
	n := len(runs)
	if n >= chain.UngovernedBranches && s.Parallel().MaxConcurrency == 0 {
		return run.Outcome{}, run.Permanent(fmt.Errorf("%d branches without max_concurrency: from %d branches on, set max_concurrency", n, chain.UngovernedBranches))
	}
	start := a.Now()
	bctx, cancel := context.WithCancel(context.WithValue(ctx, parallelDepthKey{}, nesting{nest.depth + 1, nest.limit}))
	defer cancel()
	if s.Parallel().TotalTimeoutMS > 0 {
		var stop context.CancelFunc
		bctx, stop = context.WithTimeout(bctx, time.Duration(s.Parallel().TotalTimeoutMS)*time.Millisecond)
		defer stop()
	}
	limit := s.Parallel().MaxConcurrency
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
			runs[i].Inner = runs[i].a.RunInner(bctx, runs[i].step)
			inFlight.Add(-1)
		}()
	}
	j := s.JoinRule()
	var ok, failed int
	for range n {
		r := &runs[<-finished]
		switch {
		case r.cancelled:
		case r.Err == nil:
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
	out, verdict := summarize(s, runs, start, a.Now(), most.Load())
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	if verdict != "succeeded" {
		return out, run.Permanent(fmt.Errorf("%s", failureText(s, runs, verdict, bctx)))
	}
	return out, nil
}

// branches are the branches to run: the static list, or one do: per
// item of for_each that where keeps, reading it as {item} and $.branch.
func branches(a *run.Attempt) ([]branch, error) {
	s := a.Step()
	if f := s.Parallel().FanOut; f != nil {
		list := f.ForEachList().Resolve(a.Document())
		items, isList := list.([]any)
		if !isList && list != nil {
			return nil, run.Permanent(fmt.Errorf("branches.for_each %s is not a list (it is %s)", f.ForEach, record.Clip(interp.TextOf(list), 40)))
		}
		if err := run.CheckItems("branches.for_each "+f.ForEach, len(items)); err != nil {
			return nil, err
		}
		var runs []branch
		for i, item := range items {
			if w := f.Filter(); w != nil {
				keep, err := w.Truthy(map[string]any{"value": item, "index": i})
				if err != nil {
					return nil, run.Permanent(fmt.Errorf("branches.where %q on item %d: %v", f.Where, i, err))
				}
				if !keep {
					continue
				}
			}
			b := *f.Do
			b.ID = fmt.Sprintf("%s[%d]", s.ID, len(runs))
			ba := a.With("item", interp.DataValue(item)).With("branch", interp.DataValue(map[string]any{"value": item, "index": i})).Branch(len(runs))
			runs = append(runs, branch{step: &b, a: ba})
		}
		return runs, nil
	}
	runs := make([]branch, len(s.Parallel().Branches))
	for i, b := range s.Parallel().Branches {
		runs[i] = branch{step: b, a: a.Branch(i)}
	}
	return runs, nil
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
func summarize(s *chain.Step, runs []branch, start, end time.Time, most int64) (run.Outcome, string) {
	n := len(runs)
	var ok, failed, cancelled int
	first := -1
	branches := make([]any, n)
	var total run.Outcome
	for i, r := range runs {
		total.Usage.Add(r.Usage)
		b := map[string]any{"index": i}
		switch {
		case r.cancelled:
			cancelled++
			b["ok"], b["error"] = false, map[string]any{"code": "cancelled", "message": "stopped: the join was decided"}
		case r.Err != nil:
			failed++
			if first < 0 {
				first = i
			}
			b["ok"], b["error"] = false, errorEntry(r.Err)
		default:
			ok++
			b["ok"], b["output"] = true, r.Value.Public()
			if r.Skipped {
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
	total.Value = interp.DataValue(map[string]any{"branches": branches, "summary": summary})
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
func nestedAction(v run.PlanView, b *chain.Step) string {
	sub := record.PlannedStep{}
	v.Plan(b, &sub)
	line := interp.FirstLine(sub.Action)
	for i, fb := range b.Fallbacks {
		// a fallback runs only when the one before failed past its retries
		line += fmt.Sprintf("; else fallback %d (%s): %s", i+1, fb.Kind, nestedAction(v, fb))
	}
	return line
}

// failureText says why a parallel step failed: its join, the counts, and
// the first branch that failed.
func failureText(s *chain.Step, runs []branch, verdict string, bctx context.Context) string {
	var ok int
	firstErr := ""
	for i, r := range runs {
		switch {
		case r.cancelled:
		case r.Err != nil && firstErr == "":
			firstErr = fmt.Sprintf("; branch %d (%s) failed: %s", i+1, r.step.Kind, interp.FirstLine(r.Err.Error()))
		case r.Err == nil:
			ok++
		}
	}
	msg := fmt.Sprintf("join %s not met (%s): %d of %d branches succeeded%s", joinName(s.JoinRule()), verdict, ok, len(runs), firstErr)
	if errors.Is(bctx.Err(), context.DeadlineExceeded) {
		msg += fmt.Sprintf("; total_timeout_ms %d passed", s.Parallel().TotalTimeoutMS)
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
	if s.Parallel().OnBranchFailure == "" {
		return chain.OnFailureBail
	}
	return s.Parallel().OnBranchFailure
}
