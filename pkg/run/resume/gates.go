package resume

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// GateLinks are the decisions the gates ids wait for: approve and
// reject, each GATE:approve when several gates wait.
func GateLinks(c *chain.Chain, ids []string) []response.Link {
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

// WaitingGates are the gates a saved run waits at, in the chain's order.
func WaitingGates(c *chain.Chain, saved map[string]record.StepRecord) []string {
	var ids []string
	for _, s := range c.Steps {
		if rec, ok := saved[s.ID]; ok && s.Kind == chain.KindGate && rec.Result.Status == record.Paused {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// CheckGateTake refuses, before anything runs, a --take that decides no
// gate the DAG run waits at.
func CheckGateTake(c *chain.Chain, take string, saved map[string]record.StepRecord) error {
	if take == "" {
		return nil
	}
	ids := WaitingGates(c, saved)
	links := GateLinks(c, ids)
	e := &response.TakeError{Take: take, Gate: true, Links: links}
	if len(ids) == 0 {
		return e
	}
	e.State = ids[0]
	gate, decision, one := strings.Cut(take, ":")
	if !one {
		decision = gate
	}
	if decision != chain.GateApprove && decision != chain.GateReject || one && !slices.Contains(ids, gate) {
		return e
	}
	return nil
}
