package run

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/redact"
)

func init() {
	register(chain.KindHTTP, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			c := s.C()
			if isREST(s) {
				return x.rest(ctx, s, sc)
			}
			return x.http(ctx, s, sc, c.URL, c.Headers, c.Body, s.Method)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			cs := s.C()
			if isREST(s) {
				p.Action = v.restPlan(s)
				return
			}
			p.Action = methodOf(s.Method) + " " + v.url(cs.URL)
			if b := v.keep(cs.Body); b != "" {
				p.Action += "\n" + b
			}
		},
		// an http task's result is its status code
		result: func(f *flow, s *chain.Step, sr *StepResult) (string, bool) {
			v, ok := f.st.get(s.OutputVar + "_status")
			if unfinished(sr.Status) || !ok {
				return "", false
			}
			if n, isNum := v.Data.(float64); isNum {
				return strconv.Itoa(int(n)), true
			}
			return v.Text, true
		},
	})
}

// methodOf is the method a request is sent with: GET when none is set.
func methodOf(method string) string {
	if method == "" {
		return "GET"
	}
	return method
}

// http sends one request; pre_tools use it too.
func (x *execution) http(ctx context.Context, s *chain.Step, sc scope, url *chain.Template, headers map[string]*chain.Template, body *chain.Template, method string) (outcome, error) {
	req := executor.HTTPRequest{Method: method, Headers: map[string]string{}}
	var err error
	if req.URL, err = x.renderURL(url, sc); err != nil {
		return outcome{}, err
	}
	if req.Body, err = x.render(body, sc); err != nil {
		return outcome{}, err
	}
	if err = x.renderHeaders(req.Headers, headers, sc); err != nil {
		return outcome{}, err
	}
	return x.send(ctx, s, req, func() string { return urlSource(s, url) })
}

// renderHeaders renders header templates into h.
func (x *execution) renderHeaders(h map[string]string, headers map[string]*chain.Template, sc scope) error {
	for k, t := range headers {
		v, err := x.render(t, sc)
		if err != nil {
			return err
		}
		h[k] = v
	}
	return nil
}

// send sends a request built for step s; source says what set its URL,
// for an error that must name the endpoint.
func (x *execution) send(ctx context.Context, s *chain.Step, req executor.HTTPRequest, source func() string) (outcome, error) {
	resp, err := executor.DoHTTP(ctx, x.l.client, req)
	if err != nil {
		if hp := llm.HostPort(req.URL); hp != "" && ctx.Err() == nil {
			// name the endpoint and what chose it, to know what to fix
			err = fmt.Errorf("%w (%s, set by %s)", err, hp, source())
		}
		return outcome{}, err
	}
	out := outcome{value: textValue(resp.Body), status: resp.Status}
	if s.StatusFails(resp.Status) {
		return out, fmt.Errorf("HTTP %d from %s %s (%s): %s", resp.Status, methodOf(req.Method), redact.URL(req.URL), acceptHint(s), clip(strings.TrimSpace(resp.Body), 200))
	}
	return out, nil
}

// urlSource says what set a step's URL: the references it is made of, or
// the step's url field itself.
func urlSource(s *chain.Step, url *chain.Template) string {
	var names []string
	if url != nil {
		for _, r := range url.Refs() {
			names = append(names, r.Raw)
		}
	}
	at := "the url of step " + s.ID
	if p := s.At("url"); p.Line > 0 {
		at += fmt.Sprintf(" (line %d)", p.Line)
	}
	if len(names) > 0 {
		return strings.Join(names, ", ") + " in " + at
	}
	return at
}

// acceptHint says how a step would accept a status it failed on.
func acceptHint(s *chain.Step) string {
	if len(s.SuccessStatus) > 0 {
		return fmt.Sprintf("success_status lists %v", s.SuccessStatus)
	}
	return "set fail_on_status: false to accept it"
}
