package run

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A workflow step runs another state workflow (mcp-flowgate's workflow
// executor). As a workflow's executor or task, the flow driver runs it
// (flow_sub.go), so that a decision point inside it pauses the run; here
// is the step anywhere else (a DAG chain, a parallel branch), which runs
// the workflow to its end (Attempt.RunWorkflow) and fails where it would
// wait for a decision.
func init() {
	Register(chain.KindWorkflow, Runner{
		Run: func(ctx context.Context, a *Attempt) (Outcome, error) {
			s := a.Step()
			res, err := a.RunWorkflow(ctx)
			if err != nil {
				return Outcome{}, err
			}
			out := Outcome{Usage: res.Usage}
			switch res.Status {
			case Succeeded:
				out.Value = DataValue(WorkflowOutput(s, res))
				return out, nil
			case Paused:
				return out, Permanent(fmt.Errorf("workflow %s waits for a decision at state %s (%s): a workflow step waits for one only as a workflow's executor or task", s.DefinitionID, res.State, strings.Join(SortedLinkNames(res.Links), ", ")))
			}
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, fmt.Errorf("workflow %s %s: %s", s.DefinitionID, res.Status, res.Error)
		},
		Plan: func(_ PlanView, s *chain.Step, p *PlannedStep) {
			p.Action = "workflow " + s.DefinitionID
			if in := s.C().Inputs; in != nil && len(in.Map) > 0 {
				p.Action += " with " + strings.Join(slices.Sorted(maps.Keys(in.Map)), ", ")
			}
			if bs := s.Outputs(); len(bs) > 0 {
				var outs []string
				for _, b := range bs {
					outs = append(outs, "context."+b.Key+" ← "+b.From)
				}
				p.Action += "; then " + strings.Join(outs, ", ")
			}
		},
	})
}
