// Package mcptest is an MCP server for tests of steps and executors of
// kind mcp: a few tools with known answers, served in memory, over
// streamable HTTP or over stdio, as a real server would be.
//
// It imports nothing of this module.
package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is the test server's tools and how many calls they took.
type Server struct {
	*mcp.Server
	// Calls counts tool calls.
	Calls atomic.Int64
	// Authorization is the last Authorization header HTTP brought.
	Authorization atomic.Value

	mu       sync.Mutex
	recorded []string
}

// Recorded are the arguments of each call of the record tool, as JSON
// text, in the order they came.
func (s *Server) Recorded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.recorded...)
}

type echoIn struct {
	Text string `json:"text" jsonschema:"what to say back"`
}

type sumIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type sumOut struct {
	Sum float64 `json:"sum"`
}

type failIn struct {
	Reason string `json:"reason"`
}

// New makes the server. Its tools: echo {text} answers the text; sum
// {a, b} answers {"sum": a+b} as structured content; fail {reason} is a
// tool error (isError) saying the reason; env answers the value of the
// environment variable named by {name}; json answers its arguments as
// JSON text; trace answers the traceparent of the call's _meta and of
// its HTTP header; sleep {ms} answers "slept" after ms milliseconds, or the
// call's end (a call in progress, for tests of interruptions); record
// keeps its arguments (Recorded) and is a tool error while it has been
// called no more than its argument fail times, "recorded" after.
func New() *Server {
	s := &Server{Server: mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, nil)}
	mcp.AddTool(s.Server, &mcp.Tool{Name: "echo", Description: "Says the text back."}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		s.Calls.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "sum", Description: "Adds two numbers."}, func(ctx context.Context, _ *mcp.CallToolRequest, in sumIn) (*mcp.CallToolResult, sumOut, error) {
		s.Calls.Add(1)
		return nil, sumOut{Sum: in.A + in.B}, nil
	})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "fail", Description: "Fails as a tool does."}, func(ctx context.Context, _ *mcp.CallToolRequest, in failIn) (*mcp.CallToolResult, any, error) {
		s.Calls.Add(1)
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "failed: " + in.Reason}}}, nil, nil
	})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "env", Description: "Says an environment variable."}, func(ctx context.Context, _ *mcp.CallToolRequest, in struct {
		Name string `json:"name"`
	}) (*mcp.CallToolResult, any, error) {
		s.Calls.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: os.Getenv(in.Name)}}}, nil, nil
	})
	s.Server.AddTool(&mcp.Tool{Name: "json", Description: "Says its arguments back as JSON.", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.Calls.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimSpace(string(req.Params.Arguments))}}}, nil
	})
	s.Server.AddTool(&mcp.Tool{Name: "record", Description: "Keeps its arguments; fails the first fail calls.", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.Calls.Add(1)
		var in struct {
			Fail int `json:"fail"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &in)
		s.mu.Lock()
		s.recorded = append(s.recorded, strings.TrimSpace(string(req.Params.Arguments)))
		n := len(s.recorded)
		s.mu.Unlock()
		if n <= in.Fail {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "failed: call " + strconv.Itoa(n)}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "recorded"}}}, nil
	})
	s.Server.AddTool(&mcp.Tool{Name: "trace", Description: "Says the trace context the call carried.", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.Calls.Add(1)
		meta, _ := req.Params.Meta["traceparent"].(string)
		header := ""
		if req.Extra != nil && req.Extra.Header != nil {
			header = req.Extra.Header.Get("traceparent")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "meta=" + meta + " header=" + header}}}, nil
	})
	mcp.AddTool(s.Server, &mcp.Tool{Name: "sleep", Description: "Answers after a while."}, func(ctx context.Context, _ *mcp.CallToolRequest, in struct {
		MS int `json:"ms"`
	}) (*mcp.CallToolResult, any, error) {
		s.Calls.Add(1)
		select {
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil, nil
	})
	return s
}

// InMemory connects the server to a transport a client connects to.
func (s *Server) InMemory(ctx context.Context) (mcp.Transport, error) {
	client, server := mcp.NewInMemoryTransports()
	if _, err := s.Server.Connect(ctx, server, nil); err != nil {
		return nil, err
	}
	return client, nil
}

// HTTP serves the server over streamable HTTP; the URL is the server's.
func (s *Server) HTTP() *httptest.Server {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.Server }, nil)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Authorization.Store(r.Header.Get("Authorization"))
		h.ServeHTTP(w, r)
	}))
}

// ServeStdio serves the server over this process's stdin and stdout
// until the client closes them: a test binary's command.
func ServeStdio() int {
	if err := New().Server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}
