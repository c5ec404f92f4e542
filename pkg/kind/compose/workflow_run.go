package compose

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// A workflow step runs another state workflow (mcp-flowgate's workflow
// executor). As a workflow's executor or task, the flow driver runs it
// (flow_sub.go), so that a decision point inside it pauses the run; here
// is the step anywhere else (a DAG chain, a parallel branch), which runs
// the workflow to its end (Attempt.RunWorkflow) and fails where it would
// wait for a decision.
func init() {
	run.Register(chain.KindWorkflow, run.Runner{
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			res, err := a.RunWorkflow(ctx)
			if err != nil {
				return run.Outcome{}, err
			}
			out := run.Outcome{Usage: res.Usage}
			switch res.Status {
			case record.Succeeded:
				out.Value = interp.DataValue(record.WorkflowOutput(s, res))
				return out, nil
			case record.Paused:
				return out, run.Permanent(fmt.Errorf("workflow %s waits for a decision at state %s (%s): a workflow step waits for one only as a workflow's executor or task", s.Workflow().DefinitionID, res.State, strings.Join(response.SortedLinkNames(res.Links), ", ")))
			}
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, fmt.Errorf("workflow %s %s: %s", s.Workflow().DefinitionID, res.Status, res.Error)
		},
		Plan: func(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = "workflow " + s.Workflow().DefinitionID
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
