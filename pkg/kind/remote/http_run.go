package remote

import (
	"context"
	"strconv"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/web"
)

func init() {
	run.Register(chain.KindHTTP, run.Runner{
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			c := s.C()
			if isREST(s) {
				return rest(ctx, a)
			}
			return proc.SendRequest(ctx, a, c.URL, c.Headers, c.Body, s.HTTP().Method)
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			cs := s.C()
			if isREST(s) {
				p.Action = restPlan(v, s)
				return
			}
			p.Action = web.MethodOf(s.HTTP().Method) + " " + v.URL(cs.URL)
			if b := v.Keep(cs.Body); b != "" {
				p.Action += "\n" + b
			}
		},
		// an http task's result is its status code
		Result: func(read func(string) (interp.Value, bool), s *chain.Step, sr *record.StepResult) (string, bool) {
			v, ok := read(s.OutputVar + "_status")
			if record.Unfinished(sr.Status) || !ok {
				return "", false
			}
			if n, isNum := v.Data.(float64); isNum {
				return strconv.Itoa(int(n)), true
			}
			return v.Text, true
		},
	})
}
