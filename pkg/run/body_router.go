package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
)

// A router step asks its model as an agent step does, with the routes it
// may answer appended to its prompt, and picks the route the answer
// names (chain.Step.PickRoute). Its output is the route's name; the DAG
// driver skips the steps the route leaves out (route.go). An answer that
// names no route, without default_route, fails the step.
func init() {
	register(chain.KindRouter, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, t *tries) (outcome, error) {
			sc.note += "\n\nAnswer with one of: " + strings.Join(s.RouteNames(), ", ") + "."
			out, err := x.agent(ctx, s, sc, t)
			if err != nil {
				return out, err
			}
			route, how, ok := s.PickRoute(out.value.Text)
			if !ok {
				return out, &permanentError{fmt.Errorf("the answer %q names none of the routes (%s) and there is no default_route", clip(strings.TrimSpace(out.value.Text), 80), strings.Join(s.RouteNames(), ", "))}
			}
			x.emit(event.Event{Type: event.StepLog, Step: s.ID, Line: fmt.Sprintf("route %s (%s): %s", route, how, strings.Join(s.Routes[route], ", "))})
			out.value, out.decision, out.result = Value{Text: route}, route, route
			return out, nil
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			planAgent(v, s, p)
			routes := make([]string, 0, len(s.Routes))
			for _, name := range s.RouteNames() {
				routes = append(routes, name+" → "+strings.Join(s.Routes[name], ", "))
			}
			p.Action += "\n(routes: " + strings.Join(routes, "; ") + ")"
		},
		admit: admitModel,
	})
}
