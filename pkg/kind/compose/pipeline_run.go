package compose

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A pipeline step runs its steps one after another inside one step
// (mcp-flowgate's pipeline executor): the run sees one step, one
// transition. Each step reads the output of the last one that succeeded
// as $.arguments; the first reads the run's own. Its output is {steps,
// final_output, summary}; it fails when any step failed, naming the
// first.
func init() {
	run.Register(chain.KindPipeline, run.Runner{
		Run: runPipeline,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			lines := make([]string, len(s.Pipeline().Steps))
			for i, b := range s.Pipeline().Steps {
				lines[i] = fmt.Sprintf("  step %d (%s): %s", i+1, b.Kind, nestedAction(v, b))
			}
			p.Action = fmt.Sprintf("pipeline, on failure %s:\n%s", onStepFailure(s), strings.Join(lines, "\n"))
		},
	})
}

// runPipeline runs the steps in order, each as a step of its own in the
// run's events. bail stops at the first failure; continue runs the rest,
// which read the output of the last step that succeeded (a failed or
// skipped step's nothing never erases it).
func runPipeline(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	start := a.Now()
	pctx := ctx
	if s.Parallel().TotalTimeoutMS > 0 {
		var stop context.CancelFunc
		pctx, stop = context.WithTimeout(ctx, time.Duration(s.Parallel().TotalTimeoutMS)*time.Millisecond)
		defer stop()
	}
	var total run.Outcome
	steps := make([]any, 0, len(s.Pipeline().Steps))
	var ok, failed int
	var first any // the index of the first step that failed, null if none
	var final any
	firstErr := ""
	in := a
	for i, b := range s.Pipeline().Steps {
		if pctx.Err() != nil {
			break
		}
		r := in.RunInner(pctx, b)
		total.Usage.Add(r.Usage)
		entry := map[string]any{"index": i}
		switch {
		case r.Err != nil:
			failed++
			if first == nil {
				first, firstErr = i, fmt.Sprintf("; step %d (%s) failed: %s", i+1, b.Kind, interp.FirstLine(r.Err.Error()))
			}
			entry["ok"], entry["error"] = false, errorEntry(r.Err)
		case r.Skipped:
			ok++
			entry["ok"], entry["skipped"], entry["output"] = true, true, nil
		default:
			ok++
			v := r.Value
			if v.Data == nil {
				// a command's JSON output is read as its structure
				v.Data = interp.TextValue(v.Text).Data
			}
			entry["ok"], entry["output"] = true, v.Public()
			final = v.Public()
			in = a.With("arguments", v)
		}
		steps = append(steps, entry)
		if r.Err != nil && onStepFailure(s) == chain.OnFailureBail {
			break
		}
	}
	n := len(s.Pipeline().Steps)
	verdict := "failed"
	if failed == 0 && ok == n {
		verdict = "succeeded"
	}
	summary := map[string]any{"n": n, "ok_count": ok, "failed_count": failed, "first_failure_index": first,
		"durationMs": a.Now().Sub(start).Milliseconds(), "verdict": verdict}
	total.Value = interp.DataValue(map[string]any{"steps": steps, "final_output": final, "summary": summary})
	switch {
	case ctx.Err() != nil:
		return total, ctx.Err()
	case verdict == "succeeded":
		return total, nil
	}
	msg := fmt.Sprintf("pipeline failed: %d of %d steps succeeded%s", ok, n, firstErr)
	if errors.Is(pctx.Err(), context.DeadlineExceeded) {
		msg += fmt.Sprintf("; total_timeout_ms %d passed", s.Parallel().TotalTimeoutMS)
	}
	return total, run.Permanent(errors.New(msg))
}

// onStepFailure is the pipeline's on_step_failure: bail unless written.
func onStepFailure(s *chain.Step) string {
	if s.Pipeline().OnStepFailure == "" {
		return chain.OnFailureBail
	}
	return s.Pipeline().OnStepFailure
}
