package remote

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// OCC's remote kinds: a webhook is an http request that POSTs a payload;
// a browser step loads but fails when it runs.
func init() {
	run.Register(chain.KindWebhook, run.Runner{
		Run: webhook,
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = s.HTTP().Method + " " + v.URL(s.C().URL)
			if b := v.Keep(s.C().Body); b != "" {
				p.Action += "\n" + b
			}
		},
	})
	run.Register(chain.KindBrowser, run.Runner{
		Run: func(_ context.Context, a *run.Attempt) (run.Outcome, error) {
			return run.Outcome{}, run.Permanent(fmt.Errorf("step %q: browser steps are not supported: chainrun drives no web browser (give the step a condition or continue_on_error: true, or fetch the page with an http step)", a.Step().ID))
		},
		Plan: func(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = "browser: not supported here (running the step fails)"
		},
	})
}

// webhook sends a webhook step's request through the http step's
// machinery. Without a body, a POST, PUT or PATCH sends a JSON payload:
// the chain, the run, the step, and the outputs of the steps it depends
// on (secrets masked).
func webhook(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	c := s.C()
	req := executor.HTTPRequest{Method: s.HTTP().Method, Headers: map[string]string{}}
	var err error
	if req.URL, err = a.RenderURL(c.URL); err != nil {
		return run.Outcome{}, err
	}
	if err = proc.RenderHeaders(a, req.Headers, c.Headers); err != nil {
		return run.Outcome{}, err
	}
	if req.Body, err = a.Render(c.Body); err != nil {
		return run.Outcome{}, err
	}
	if c.Body == nil && s.HTTP().Method != "GET" && s.HTTP().Method != "DELETE" {
		outputs := map[string]any{}
		for _, dep := range s.DependsOn {
			for _, d := range a.Chain().Steps {
				if d.ID == dep && d.OutputVar != "" {
					v, _ := a.Lookup(d.OutputVar)
					outputs[d.OutputVar] = v.Public()
				}
			}
		}
		b, _ := json.Marshal(map[string]any{"chain": a.Chain().Name, "run_id": a.RunID(), "step": s.ID, "outputs": outputs})
		req.Body = a.Mask(string(b))
		if !hasHeader(req.Headers, "Content-Type") {
			req.Headers["Content-Type"] = "application/json"
		}
	}
	if k := a.IdempotencyKey(); k != "" {
		req.Headers[run.KeyHeader] = k
	}
	return proc.Send(ctx, a, req, func() string { return proc.URLSource(s, c.URL) })
}
