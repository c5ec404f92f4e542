package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RemoteError is an --http address that is not loopback, given without
// leave to serve beyond this machine. Nothing was started.
type RemoteError struct{ Addr string }

func (e *RemoteError) Error() string {
	return fmt.Sprintf("--http %s: not a loopback address; chains run commands on this machine, so serving them beyond it takes --allow-remote (or use 127.0.0.1:PORT)", e.Addr)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *RemoteError) NothingRan() bool { return true }

// Listen listens on addr for streamable HTTP: a loopback address
// (127.0.0.1, ::1, localhost) unless remote allows any.
func Listen(addr string, remote bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &addrError{addr, err}
	}
	if !remote && !loopback(host) {
		return nil, &RemoteError{Addr: addr}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, &addrError{addr, err}
	}
	return ln, nil
}

// addrError is an --http address that cannot be listened on.
type addrError struct {
	addr string
	err  error
}

func (e *addrError) Error() string    { return fmt.Sprintf("--http %s: %v", e.addr, e.err) }
func (e *addrError) Unwrap() error    { return e.err }
func (e *addrError) NothingRan() bool { return true }

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Handler serves the server over streamable HTTP, behind Go's
// cross-origin protection (a browser page of another origin cannot call
// it); stateless serves each request on its own, without sessions (no
// progress notifications, no elicitation).
func (s *Server) Handler(stateless bool) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
	return http.NewCrossOriginProtection().Handler(h)
}

// ServeHTTP serves over streamable HTTP on ln until ctx ends.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, stateless bool) error {
	srv := &http.Server{Handler: s.Handler(stateless), ReadHeaderTimeout: 10 * time.Second}
	defer context.AfterFunc(ctx, s.stop)() // as Serve: a call waiting on a run answers at once
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
