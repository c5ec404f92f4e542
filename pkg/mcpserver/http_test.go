package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestHTTPOnLoopback(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		s := New(newMemBackend(chainsDir(t)), Options{})
		s.Reload()
		ln, err := Listen("127.0.0.1:0", false)
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- s.ServeHTTP(ctx, ln, stateless) }()
		url := "http://" + ln.Addr().String()

		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, isErr := call(t, cs, toolStart, map[string]any{"chain": "deploy", "inputs": map[string]any{"service": "api"}})
		if isErr || r.Status != "paused" || len(r.Links) != 2 {
			t.Errorf("stateless %v: start_run over HTTP: %+v", stateless, r)
		}
		_ = cs.Close()

		// a page of another origin cannot call it
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://elsewhere.example")
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-origin request: %v %v", resp, err)
		}
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
		s.Close()
	}
}

func TestListenRefusesRemoteAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		remote bool
		refuse bool
	}{
		{"0.0.0.0:0", false, true},
		{":0", false, true},
		{"192.0.2.1:0", false, true},
		{"localhost:0", false, false},
		{"[::1]:0", false, false},
		{"0.0.0.0:0", true, false},
	} {
		ln, err := Listen(tc.addr, tc.remote)
		var re *RemoteError
		if got := errors.As(err, &re); got != tc.refuse {
			t.Errorf("Listen(%q, %v): %v", tc.addr, tc.remote, err)
		}
		if ln != nil {
			_ = ln.Close()
		}
	}
}
