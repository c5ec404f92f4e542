package proc

import (
	"context"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/redact"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// SendRequest sends one request of the attempt's step: an http step's,
// and a pre_tool's.
func SendRequest(ctx context.Context, a *run.Attempt, url *chain.Template, headers map[string]*chain.Template, body *chain.Template, method string) (run.Outcome, error) {
	req := executor.HTTPRequest{Method: method, Headers: map[string]string{}}
	var err error
	if req.URL, err = a.RenderURL(url); err != nil {
		return run.Outcome{}, err
	}
	if req.Body, err = a.Render(body); err != nil {
		return run.Outcome{}, err
	}
	if err = RenderHeaders(a, req.Headers, headers); err != nil {
		return run.Outcome{}, err
	}
	return Send(ctx, a, req, func() string { return URLSource(a.Step(), url) })
}

// RenderHeaders renders header templates into h.
func RenderHeaders(a *run.Attempt, h map[string]string, headers map[string]*chain.Template) error {
	for k, t := range headers {
		v, err := a.Render(t)
		if err != nil {
			return err
		}
		h[k] = v
	}
	return nil
}

// Send sends a request built for the attempt's step (an http, rest or
// webhook step's); source says what set its URL, for an error that must
// name the endpoint.
func Send(ctx context.Context, a *run.Attempt, req executor.HTTPRequest, source func() string) (run.Outcome, error) {
	s := a.Step()
	if req.Headers == nil {
		req.Headers = map[string]string{}
	}
	if tc, ok := a.Trace(ctx); ok {
		tc.Inject(req.Headers)
	}
	resp, err := executor.DoHTTP(ctx, a.HTTPClient(), req)
	if err != nil {
		if hp := llm.HostPort(req.URL); hp != "" && ctx.Err() == nil {
			// name the endpoint and what chose it, to know what to fix
			err = fmt.Errorf("%w (%s, set by %s)", err, hp, source())
		}
		return run.Outcome{}, err
	}
	out := run.Outcome{Value: interp.TextValue(resp.Body), Status: resp.Status}
	if chain.StatusFails(s, resp.Status) {
		return out, fmt.Errorf("HTTP %d from %s %s (%s): %s", resp.Status, web.MethodOf(req.Method), redact.URL(req.URL), web.AcceptHint(s), record.Clip(strings.TrimSpace(resp.Body), 200))
	}
	return out, nil
}

// URLSource says what set a step's URL: the references it is made of, or
// the step's url field itself.
func URLSource(s *chain.Step, url *chain.Template) string {
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
