package run

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// gateWait is a gate the run waits at: its question and since when.
type gateWait struct {
	question string
	since    time.Time
	limit    time.Duration // 0: no deadline
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
func held(err error) (status record.StepStatus, reason, since string, ok bool) {
	var pe *pausedError
	var se *skippedError
	switch {
	case errors.As(err, &pe):
		return record.Paused, "waiting for approval (resume --take approve or reject)", pe.since.UTC().Format(time.RFC3339Nano), true
	case errors.As(err, &se):
		return record.StepSkipped, se.reason, "", true
	}
	return "", "", "", false
}

// gateTake is the decision resume --take gives gate id: approve or
// reject, for every gate the run waits at, or GATE:approve for one.
func (x *Execution) gateTake(id string) string {
	gate, decision, one := strings.Cut(x.Req.Take, ":")
	if !one {
		return x.Req.Take
	}
	if gate == id {
		return decision
	}
	return ""
}

// gateLinks are the decisions the gates ids wait for: approve and
// reject, each GATE:approve when several gates wait.
func gateLinks(c *chain.Chain, ids []string) []response.Link {
	var links []response.Link
	for _, id := range ids {
		prefix, name := "", id
		if len(ids) > 1 {
			prefix = id + ":"
		}
		if s := c.Step(id); s != nil {
			name = s.Name()
		}
		links = append(links,
			response.Link{Transition: prefix + chain.GateApprove, Title: "Approve: " + name, Actor: chain.ActorHuman},
			response.Link{Transition: prefix + chain.GateReject, Title: "Reject: " + name, Actor: chain.ActorHuman})
	}
	return links
}

// waitingGates are the gates a saved run waits at, in the chain's order.
func waitingGates(c *chain.Chain, saved map[string]record.StepRecord) []string {
	var ids []string
	for _, s := range c.Steps {
		if rec, ok := saved[s.ID]; ok && s.Kind == chain.KindGate && rec.Result.Status == record.Paused {
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
	e := &response.TakeError{Take: req.Take, Gate: true, Links: links}
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
