package mcpclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/mcpclient"
)

// closingServer is an MCP server over streamable HTTP, at protocol
// 2025-11-25, whose tool "later" closes the call's SSE stream (SEP-1699:
// a priming event, retry after retry when it is not zero), then answers
// wait later; the answer is kept in an event store for the client's GET
// with Last-Event-ID. gets counts those GETs.
func closingServer(t *testing.T, retry, wait time.Duration, gets *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "closing", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "later", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: retry})
		time.Sleep(wait)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the answer after the stream closed"}}}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") != "" {
			gets.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestCallSurvivesAServerClosingItsStream: when the server closes a
// call's SSE stream after a priming event, the client reconnects (after
// the retry the server asked, else with backoff) with Last-Event-ID and
// gets the result.
func TestCallSurvivesAServerClosingItsStream(t *testing.T) {
	tests := []struct {
		name        string
		retry, wait time.Duration
	}{
		{"retry 100ms, the answer after the reconnection", 100 * time.Millisecond, 300 * time.Millisecond},
		{"retry 400ms, the answer ready before it", 400 * time.Millisecond, 20 * time.Millisecond},
		{"no retry field: backoff", 0, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gets atomic.Int64
			s := closingServer(t, tt.retry, tt.wait, &gets)
			var p mcpclient.Pool
			defer p.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := p.Call(ctx, mcpclient.Server{Name: "closing", URL: s.URL}, "later", nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "the answer after the stream closed" || gets.Load() < 1 {
				t.Errorf("result %q after %d reconnections", res.Text, gets.Load())
			}
		})
	}
}

// TestReconnectionIsBounded: a server whose stream ends and whose GETs
// fail is given up on after a few attempts, with an error that says so,
// not waited for forever.
func TestReconnectionIsBounded(t *testing.T) {
	var gets atomic.Int64
	inner := closingServer(t, 10*time.Millisecond, 10*time.Millisecond, &gets)
	var refused atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			refused.Add(1)
			// the connection dies before any answer
			if hj, ok := w.(http.Hijacker); ok {
				c, _, _ := hj.Hijack()
				c.Close()
				return
			}
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, inner.URL, r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				w.Write(buf[:n])
				w.(http.Flusher).Flush()
			}
			if err != nil {
				return
			}
		}
	}))
	defer s.Close()
	var p mcpclient.Pool
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	_, err := p.Call(ctx, mcpclient.Server{Name: "gone", URL: s.URL}, "later", nil)
	if err == nil || !strings.Contains(err.Error(), "reconnect") {
		t.Fatalf("want a reconnection failure, got %v", err)
	}
	if n := refused.Load(); n < 2 || n > 10 || time.Since(start) > 30*time.Second {
		t.Errorf("%d reconnection attempts in %s", n, time.Since(start))
	}
}
