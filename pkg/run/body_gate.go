package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
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
	register(chain.KindGate, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			return x.gate(ctx, s, sc)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			p.Action = "wait for approval (resume --take approve|reject)"
			if q := v.keep(s.C().Prompt); q != "" {
				p.Action += ": " + q
			}
			if s.AutoApproveIf != "" {
				p.Action += "; approved at once when " + s.AutoApproveIf
			}
		},
	})
}

// gateWait is a gate the run waits at: its question and since when.
type gateWait struct {
	question string
	since    time.Time
}

// pausedError is a gate that waits for a decision; skippedError a step
// that decided to be skipped (a gate's timeout with on_timeout: skip).
type pausedError struct{ since time.Time }

func (e *pausedError) Error() string { return "waiting for approval" }

type skippedError struct{ reason string }

func (e *skippedError) Error() string { return e.reason }

// held reports a step that did not run to an end of its own: a gate that
// waits (paused) or skipped itself, with the reason and, for a gate that
// waits, since when (RFC 3339).
func held(err error) (status StepStatus, reason, since string, ok bool) {
	var pe *pausedError
	var se *skippedError
	switch {
	case errors.As(err, &pe):
		return Paused, "waiting for approval (resume --take approve or reject)", pe.since.UTC().Format(time.RFC3339Nano), true
	case errors.As(err, &se):
		return StepSkipped, se.reason, "", true
	}
	return "", "", "", false
}

// gate decides a gate step, or pauses it.
func (x *execution) gate(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	now := x.l.now()
	since := now
	prev, waited := x.req.Resume[s.ID]
	waited = waited && prev.Result.Status == Paused
	if t, err := time.Parse(time.RFC3339Nano, prev.Result.WaitingSince); waited && err == nil {
		since = x.notAhead(t)
	}
	question, err := x.render(s.C().Prompt, sc)
	if err != nil {
		return outcome{}, err
	}
	// the question is shown and saved as a result is: secrets masked
	question = x.mask(question)
	if e := s.C().AutoApprove; e != nil {
		holds, err := e.Holds(sc.exprEnv(e.Names))
		if err != nil {
			return outcome{}, &permanentError{fmt.Errorf("gate_auto_approve_if: %w", err)}
		}
		if holds {
			return x.gateDecided(s, chain.GateApprove, "condition")
		}
	}
	if take := x.gateTake(s.ID); waited && take != "" {
		return x.gateDecided(s, take, "caller")
	}
	if limit := s.GateTimeout(); limit > 0 && !now.Before(since.Add(limit)) {
		return x.gateDecided(s, s.TimeoutDecision(), "timeout")
	}
	links := gateLinks(x.c, []string{s.ID})
	if x.req.Human != nil {
		c, ok, err := x.req.Human(ctx, Decision{RunID: x.runID, Workflow: x.c.Name, State: s.ID, Goal: question, Links: links})
		if err != nil {
			return outcome{}, &permanentError{fmt.Errorf("asking for a decision: %w", err)}
		}
		if ok && (c.Transition == chain.GateApprove || c.Transition == chain.GateReject) {
			return x.gateDecided(s, c.Transition, "human")
		}
	}
	x.mu.Lock()
	if x.waiting == nil {
		x.waiting = map[string]gateWait{}
	}
	x.waiting[s.ID] = gateWait{question: question, since: since}
	x.mu.Unlock()
	x.emit(event.Event{Type: event.Decision, State: s.ID, Step: s.ID, Status: Paused, Detail: "waiting for: approve, reject"})
	return outcome{}, &permanentError{&pausedError{since: since}}
}

// gateDecided carries out a gate's decision; by says who took it.
func (x *execution) gateDecided(s *chain.Step, decision, by string) (outcome, error) {
	x.emit(event.Event{Type: event.Decision, State: s.ID, Step: s.ID, DecidedBy: by, Detail: decision})
	out := outcome{decision: decision}
	switch decision {
	case chain.GateApprove:
		out.value = Value{Text: "approved"}
		return out, nil
	case chain.GateSkip:
		return out, &permanentError{&skippedError{reason: fmt.Sprintf("gate timed out after %s: on_timeout skip", s.GateTimeout())}}
	}
	why := map[string]string{"caller": "resume --take reject", "human": "by the person asked", "timeout": fmt.Sprintf("timed out after %s: on_timeout %s", s.GateTimeout(), s.OnTimeout)}[by]
	return out, &permanentError{fmt.Errorf("rejected (%s)", why)}
}

// gateTake is the decision resume --take gives gate id: approve or
// reject, for every gate the run waits at, or GATE:approve for one.
func (x *execution) gateTake(id string) string {
	gate, decision, one := strings.Cut(x.req.Take, ":")
	if !one {
		return x.req.Take
	}
	if gate == id {
		return decision
	}
	return ""
}

// gateLinks are the decisions the gates ids wait for: approve and
// reject, each GATE:approve when several gates wait.
func gateLinks(c *chain.Chain, ids []string) []Link {
	var links []Link
	for _, id := range ids {
		prefix, name := "", id
		if len(ids) > 1 {
			prefix = id + ":"
		}
		if s := c.Step(id); s != nil {
			name = s.Name()
		}
		links = append(links,
			Link{Transition: prefix + chain.GateApprove, Title: "Approve: " + name, Actor: chain.ActorHuman},
			Link{Transition: prefix + chain.GateReject, Title: "Reject: " + name, Actor: chain.ActorHuman})
	}
	return links
}

// waitingGates are the gates a saved run waits at, in the chain's order.
func waitingGates(c *chain.Chain, saved map[string]StepRecord) []string {
	var ids []string
	for _, s := range c.Steps {
		if rec, ok := saved[s.ID]; ok && s.Kind == chain.KindGate && rec.Result.Status == Paused {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// checkGateTake refuses, before anything runs, a --take that decides no
// gate the DAG run waits at.
func checkGateTake(c *chain.Chain, req Request) error {
	if req.Take == "" {
		return nil
	}
	ids := waitingGates(c, req.Resume)
	links := gateLinks(c, ids)
	e := &TakeError{Take: req.Take, Gate: true, Links: links}
	if len(ids) == 0 {
		return e
	}
	e.State = ids[0]
	gate, decision, one := strings.Cut(req.Take, ":")
	if !one {
		decision = gate
	}
	if decision != chain.GateApprove && decision != chain.GateReject || one && !slices.Contains(ids, gate) {
		return e
	}
	return nil
}
