package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/redact"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// Server is how to reach one MCP server: Command (with Args, Env and Dir)
// starts it and speaks over its stdin and stdout; URL reaches it over
// streamable HTTP with Headers on every request.
type Server struct {
	// Name is the connection's name, for messages.
	Name    string
	Command string
	Args    []string
	// Env is the server program's whole environment (nil: chainrun's).
	Env     []string
	Dir     string
	URL     string
	Headers map[string]string
	// Transport, when set, is used instead (tests give an in-memory one).
	Transport mcp.Transport
}

// key tells servers apart: two steps naming the same server share its
// session.
func (s Server) key() string {
	if s.Transport != nil {
		return fmt.Sprintf("transport %p", s.Transport)
	}
	hs := make([]string, 0, len(s.Headers))
	for k, v := range s.Headers {
		hs = append(hs, k+"="+v)
	}
	sort.Strings(hs)
	return strings.Join(append([]string{s.Name, s.Command, s.URL, s.Dir, strings.Join(s.Args, "\x00"), strings.Join(s.Env, "\x00")}, hs...), "\x01")
}

// Result is what a tool call returned.
type Result struct {
	// Text is the text of the tool's content blocks, one after another.
	Text string
	// Structured is the tool's structured content, when it sent one.
	Structured any
	// IsError is the tool saying it failed (its text says why): the call
	// itself worked.
	IsError bool
}

// Value is the result as a step's value: the structured content, else the
// text parsed when it is a JSON object or array, else the text.
func (r Result) Value() any {
	if r.Structured != nil {
		return r.Structured
	}
	t := strings.TrimSpace(r.Text)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		var v any
		if json.Unmarshal([]byte(t), &v) == nil {
			return v
		}
	}
	return r.Text
}

// ConnectError is a server that could not be started or reached, or
// that did not speak MCP: no tool was called.
type ConnectError struct {
	Server string
	Err    error
}

func (e *ConnectError) Error() string {
	return redact.URLsIn(fmt.Sprintf("MCP server %s: cannot connect: %v", e.Server, e.Err))
}

// redacted is an error whose text shows its URLs as redact.URL does (the
// SDK and Go's HTTP client quote the connection's URL, query and user
// included); the error itself is kept for errors.Is and errors.As.
type redacted struct{ err error }

func (r redacted) Error() string { return redact.URLsIn(r.err.Error()) }
func (r redacted) Unwrap() error { return r.err }

func (e *ConnectError) Unwrap() error { return e.Err }

// Pool holds the sessions of one run, opened on first use.
type Pool struct {
	// Version is chainrun's, sent as the client's implementation.
	Version string
	// Grace is how long what is left of a stdio server's process group
	// has between TERM and KILL when its session closes
	// (executor.DefaultGrace when zero).
	Grace time.Duration
	mu    sync.Mutex
	open  map[string]*entry
}

// entry is one server's session, opened once: callers of a server being
// connected wait for it.
type entry struct {
	ready   chan struct{}
	session *mcp.ClientSession
	err     error
}

// Call calls tool on the server with args (nil: no arguments).
func (p *Pool) Call(ctx context.Context, srv Server, tool string, args map[string]any) (Result, error) {
	cs, err := p.session(ctx, srv)
	if err != nil {
		return Result{}, err
	}
	params := &mcp.CallToolParams{Name: tool}
	if args != nil {
		params.Arguments = args
	}
	if tc := tracectx.FromContext(ctx); tc.IsValid() {
		// the step's span, for a server that traces (over HTTP the
		// request's traceparent header says it too)
		params.Meta = mcp.Meta{"traceparent": tc.Traceparent()}
		if tc.State != "" {
			params.Meta["tracestate"] = tc.State
		}
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if errors.Is(err, mcp.ErrConnectionClosed) {
			p.forget(srv, cs)
		}
		return Result{}, redacted{fmt.Errorf("MCP server %s: tool %s: %w", srv.Name, tool, err)}
	}
	out := Result{Structured: res.StructuredContent, IsError: res.IsError}
	var texts []string
	for _, c := range res.Content {
		switch b := c.(type) {
		case *mcp.TextContent:
			texts = append(texts, b.Text)
		default:
			if j, err := json.Marshal(b); err == nil {
				texts = append(texts, string(j))
			}
		}
	}
	out.Text = strings.Join(texts, "\n")
	return out, nil
}

// Tools lists the tools a server offers.
func (p *Pool) Tools(ctx context.Context, srv Server) ([]*mcp.Tool, error) {
	cs, err := p.session(ctx, srv)
	if err != nil {
		return nil, err
	}
	var tools []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, redacted{fmt.Errorf("MCP server %s: listing tools: %w", srv.Name, err)}
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// session opens the server's session, or returns the one open.
func (p *Pool) session(ctx context.Context, srv Server) (*mcp.ClientSession, error) {
	k := srv.key()
	p.mu.Lock()
	if p.open == nil {
		p.open = map[string]*entry{}
	}
	e, ok := p.open[k]
	if !ok {
		e = &entry{ready: make(chan struct{})}
		p.open[k] = e
	}
	p.mu.Unlock()
	if !ok {
		e.session, e.err = p.connect(ctx, srv)
		if e.err != nil {
			p.mu.Lock()
			delete(p.open, k) // a later step tries again
			p.mu.Unlock()
		}
		close(e.ready)
	}
	select {
	case <-e.ready:
		return e.session, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// forget drops a session the server closed, so the next call reconnects,
// and closes it: what the server started is stopped with it.
func (p *Pool) forget(srv Server, cs *mcp.ClientSession) {
	p.mu.Lock()
	if e := p.open[srv.key()]; e != nil && e.session == cs {
		delete(p.open, srv.key())
	}
	p.mu.Unlock()
	_ = cs.Close()
}

// reconnects is how many times a streamable HTTP session reconnects to
// a call's stream the server closed (SEP-1699, spec 2025-11-25: a GET
// with Last-Event-ID, after the server's retry: delay, then with growing
// waits from a second up to 30 s) before the call fails.
const reconnects = 5

// connect starts or reaches the server and initialises a session.
func (p *Pool) connect(ctx context.Context, srv Server) (*mcp.ClientSession, error) {
	var t mcp.Transport
	switch {
	case srv.Transport != nil:
		t = srv.Transport
	case srv.Command != "":
		cmd := exec.Command(srv.Command, srv.Args...)
		cmd.Env, cmd.Dir = srv.Env, srv.Dir
		t = newGroupTransport(cmd, p.Grace)
	case srv.URL != "":
		client := &http.Client{Transport: &optionalStandalone{next: headerTransport{headers: srv.Headers, next: http.DefaultTransport}}}
		t = &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: client, MaxRetries: reconnects}
	default:
		return nil, &ConnectError{Server: srv.Name, Err: errors.New("neither a command nor a url")}
	}
	version := p.Version
	if version == "" {
		version = "dev"
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "chainrun", Version: version}, nil)
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &ConnectError{Server: srv.Name, Err: err}
	}
	return cs, nil
}

// Close ends every session (a stdio server's program is stopped).
func (p *Pool) Close() error {
	p.mu.Lock()
	open := p.open
	p.open = nil
	p.mu.Unlock()
	var errs []error
	for _, e := range open {
		<-e.ready
		if e.session != nil {
			if err := e.session.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// headerTransport adds a connection's headers to every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	tc := tracectx.FromContext(r.Context())
	if len(h.headers) > 0 || tc.IsValid() {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
		if tc.IsValid() && r.Header.Get("traceparent") == "" {
			// the calling step's span (tracectx.NewContext)
			r.Header.Set("traceparent", tc.Traceparent())
			if tc.State != "" {
				r.Header.Set("tracestate", tc.State)
			}
		}
	}
	return h.next.RoundTrip(r)
}
