package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/redact"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// isREST reports whether an http step is mcp-flowgate's rest executor:
// it names a connection, or has a body, query or key that is more than
// text.
func isREST(s *chain.Step) bool {
	c := s.C()
	return s.HTTP().Connection != "" || c.BodyJSON != nil || c.Query != nil || s.Key().IdempotencyKey != nil
}

// rest sends an http step written as mcp-flowgate's rest executor: the
// connection's baseUrl with the step's path (or the url), its query, the
// connection's headers then the step's, and a body sent as JSON when it
// was written as a mapping.
func rest(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	c := s.C()
	req := executor.HTTPRequest{Method: s.HTTP().Method, Headers: map[string]string{}}
	doc := a.Document()
	var err error
	conn := a.Connection(s.HTTP().Connection)
	if conn != nil {
		base, err := expandEnv(a.Getenv, conn.BaseURL, "connection "+conn.Name+" baseUrl")
		if err != nil {
			return run.Outcome{}, err
		}
		path, err := restPath(s.Path().Path, doc)
		if err != nil {
			return run.Outcome{}, err
		}
		req.URL = strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
		headers, err := connectionValues(a.Getenv, conn, "header", conn.Headers)
		if err != nil {
			return run.Outcome{}, err
		}
		maps.Copy(req.Headers, headers)
	} else if req.URL, err = a.RenderURL(c.URL); err != nil {
		return run.Outcome{}, err
	}
	if req.URL, err = withQuery(req.URL, c.Query, doc); err != nil {
		return run.Outcome{}, err
	}
	if err = proc.RenderHeaders(a, req.Headers, c.Headers); err != nil {
		return run.Outcome{}, err
	}
	if c.BodyJSON != nil {
		b, err := json.Marshal(c.BodyJSON.Resolve(doc))
		if err != nil {
			return run.Outcome{}, run.Permanent(fmt.Errorf("body: %v", err))
		}
		req.Body = string(b)
		if !hasHeader(req.Headers, "Content-Type") {
			req.Headers["Content-Type"] = "application/json"
		}
	} else if req.Body, err = a.Render(c.Body); err != nil {
		return run.Outcome{}, err
	}
	if k := a.IdempotencyKey(); k != "" {
		req.Headers[run.KeyHeader] = k
	}
	return proc.Send(ctx, a, req, func() string {
		if conn != nil {
			return fmt.Sprintf("connection %s of step %s", conn.Name, s.ID)
		}
		return proc.URLSource(s, c.URL)
	})
}

// pathRef is a {name} (or {name.field}) in a rest executor's path.
var pathRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}`) })

// restPath fills a rest executor's path as mcp-flowgate does: {name} is
// the decision's argument of that name, else the context's, else the
// input's, percent-encoded. A name none of them has fails the step.
func restPath(path string, doc map[string]any) (string, error) {
	var missing []string
	out := pathRef().ReplaceAllStringFunc(path, func(m string) string {
		names := strings.Split(m[1:len(m)-1], ".")
		for _, from := range []string{"arguments", "context", "input"} {
			if v, ok := interp.Walk(doc[from], names); ok && v != nil {
				return url.PathEscape(interp.TextOf(v))
			}
		}
		missing = append(missing, m)
		return m
	})
	if len(missing) > 0 {
		return "", run.Permanent(fmt.Errorf("path %s: %s is not an argument, context key or input of the run", path, strings.Join(missing, ", ")))
	}
	return out, nil
}

// withQuery adds the query parameters to a URL, each read when the step
// runs (a missing one is left out).
func withQuery(raw string, query map[string]*chain.Mapped, doc map[string]any) (string, error) {
	if len(query) == 0 {
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", run.Permanent(fmt.Errorf("url: %v", err))
	}
	q := u.Query()
	for _, k := range sortedKeys(query) {
		if v := query[k].Resolve(doc); v != nil {
			q.Set(k, interp.TextOf(v))
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// connectionValues are a connection's settings of one kind (header,
// env), each with its ${NAME}s read now.
func connectionValues(getenv func(string) (string, bool), conn *chain.Connection, what string, m map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		v, err := expandEnv(getenv, m[k], "connection "+conn.Name+" "+what+" "+k)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// envRef is ${NAME} in a connection's settings.
var envRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`) })

// expandEnv reads the environment variables a connection's setting names
// as ${NAME}, when the request is sent: an unset one fails the step,
// naming it (the value itself is never shown or saved).
func expandEnv(getenv func(string) (string, bool), text, what string) (string, error) {
	var unset []string
	out := envRef().ReplaceAllStringFunc(text, func(m string) string {
		v, ok := getenv(m[2 : len(m)-1])
		if !ok {
			unset = append(unset, m[2:len(m)-1])
		}
		return v
	})
	if len(unset) > 0 {
		return "", run.Permanent(fmt.Errorf("%s reads the environment variable %s, which is not set", what, strings.Join(unset, ", ")))
	}
	return out, nil
}

func hasHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// restPlan is a rest executor's dry-run line: the method, where it goes,
// and what its body reads.
func restPlan(v run.PlanView, s *chain.Step) string {
	c := s.C()
	where := v.URL(c.URL)
	if conn := v.Connection(s.HTTP().Connection); conn != nil {
		where = redact.URL(strings.TrimRight(conn.BaseURL, "/") + "/" + strings.TrimLeft(s.Path().Path, "/"))
	}
	line := web.MethodOf(s.HTTP().Method) + " " + where
	if len(c.Query) > 0 {
		line += " ?" + strings.Join(sortedKeys(c.Query), "&")
	}
	if c.BodyJSON != nil {
		line += "\nJSON body"
		if paths := c.BodyJSON.Paths(); len(paths) > 0 {
			line += " reading " + strings.Join(paths, ", ")
		}
	} else if b := v.Keep(c.Body); b != "" {
		line += "\n" + b
	}
	return line
}
