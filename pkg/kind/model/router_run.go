package model

import (
	"context"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A router step asks its model as an agent step does, with the routes it
// may answer appended to its prompt, and picks the route the answer
// names (chain.Step.PickRoute). Its output is the route's name; the DAG
// driver skips the steps the route leaves out (route.go). An answer that
// names no route, without default_route, fails the step.
func init() {
	run.Register(chain.KindRouter, run.Runner{
		Route: func(s *chain.Step, route string) (chosen, left []string) {
			return Router(s).Routes[route], Unselected(s, route)
		},
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			out, err := a.WithNote("\n\nAnswer with one of: " + strings.Join(RouteNames(s), ", ") + ".").Agent(ctx)
			if err != nil {
				return out, err
			}
			route, how, ok := PickRoute(s, out.Value.Text)
			if !ok {
				return out, run.Permanent(fmt.Errorf("the answer %q names none of the routes (%s) and there is no default_route", record.Clip(strings.TrimSpace(out.Value.Text), 80), strings.Join(RouteNames(s), ", ")))
			}
			a.Emit(event.Event{Type: event.StepLog, Step: s.ID, Line: fmt.Sprintf("route %s (%s): %s", route, how, strings.Join(Router(s).Routes[route], ", "))})
			out.Value, out.Decision, out.Result = interp.Value{Text: route}, route, route
			return out, nil
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			v.Agent(s, p)
			routes := make([]string, 0, len(Router(s).Routes))
			for _, name := range RouteNames(s) {
				routes = append(routes, name+" → "+strings.Join(Router(s).Routes[name], ", "))
			}
			p.Action += "\n(routes: " + strings.Join(routes, "; ") + ")"
		},
		Admit: run.AdmitModel,
	})
}
