package basic

import (
	"context"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A gate step waits for a person, as a workflow's decision point does: it
// approves at once when gate_auto_approve_if holds; else it takes the
// decision resume --take gives it (approve or reject), or, once
// timeout_hours have passed since it began to wait, on_timeout's; else a
// person at the terminal decides; else the run pauses there (exit 3) and
// only the steps that depend on the gate wait with it. Approve stores
// "approved" in its output_var; reject fails the step; skip (a timeout's)
// skips it.
func init() {
	run.Register(chain.KindGate, run.Runner{
		Run: gate,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = "wait for approval (resume --take approve|reject)"
			if q := v.Keep(s.C().Prompt); q != "" {
				p.Action += ": " + q
			}
			if Gate(s).AutoApproveIf != "" {
				p.Action += "; approved at once when " + Gate(s).AutoApproveIf
			}
		},
	})
}

// gate decides a gate step, or pauses it.
func gate(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	now := a.Now()
	since, waited := a.Waited(now)
	question, err := a.Render(s.C().Prompt)
	if err != nil {
		return run.Outcome{}, err
	}
	// the question is shown and saved as a result is: secrets masked
	question = a.Mask(question)
	if e := s.C().AutoApprove; e != nil {
		holds, err := e.HoldsContext(ctx, a.ExprEnv(e.Names))
		if err != nil {
			return run.Outcome{}, run.Permanent(fmt.Errorf("gate_auto_approve_if: %w", err))
		}
		if holds {
			return gateDecided(a, chain.GateApprove, "condition")
		}
	}
	if take := a.Take(); waited && take != "" {
		return gateDecided(a, take, "caller")
	}
	if limit := GateTimeout(s); limit > 0 && !now.Before(since.Add(limit)) {
		return gateDecided(a, TimeoutDecision(s), "timeout")
	}
	c, ok, err := a.AskPerson(ctx, question)
	if err != nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("asking for a decision: %w", err))
	}
	if ok && (c == chain.GateApprove || c == chain.GateReject) {
		return gateDecided(a, c, "human")
	}
	return run.Outcome{}, a.Pause(question, since, GateTimeout(s))
}

// gateDecided carries out a gate's decision; by says who took it.
func gateDecided(a *run.Attempt, decision, by string) (run.Outcome, error) {
	s := a.Step()
	a.Emit(event.Event{Type: event.Decision, State: s.ID, Step: s.ID, DecidedBy: by, Detail: decision})
	out := run.Outcome{Decision: decision}
	switch decision {
	case chain.GateApprove:
		out.Value = interp.Value{Text: "approved"}
		return out, nil
	case GateSkip:
		return out, run.Skip(fmt.Sprintf("gate timed out after %s: on_timeout skip", GateTimeout(s)))
	}
	why := map[string]string{"caller": "resume --take reject", "human": "by the person asked", "timeout": fmt.Sprintf("timed out after %s: on_timeout %s", GateTimeout(s), Gate(s).OnTimeout)}[by]
	return out, run.Permanent(fmt.Errorf("rejected (%s)", why))
}
