package mcpclient_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
)

// TestMain lets the test binary be a stdio MCP server: the stdio test
// starts it with MCPTEST_SERVE=1.
func TestMain(m *testing.M) {
	if os.Getenv("MCPTEST_SERVE") == "1" {
		os.Exit(mcptest.ServeStdio())
	}
	os.Exit(m.Run())
}

func TestCallOverEachTransport(t *testing.T) {
	ctx := context.Background()
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	mem, err := srv.InMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]mcpclient.Server{
		"in memory": {Name: "mem", Transport: mem},
		"http":      {Name: "web", URL: web.URL, Headers: map[string]string{"X-Test": "1"}},
		"stdio":     {Name: "stdio", Command: self, Env: append(os.Environ(), "MCPTEST_SERVE=1", "MCPTEST_WORD=hello")},
	}
	for name, s := range servers {
		t.Run(name, func(t *testing.T) {
			var p mcpclient.Pool
			defer func() {
				if err := p.Close(); err != nil {
					t.Errorf("close: %v", err)
				}
			}()
			tests := []struct {
				tool    string
				args    map[string]any
				want    any
				isError bool
			}{
				{"echo", map[string]any{"text": "hi"}, "hi", false},
				{"sum", map[string]any{"a": 2, "b": 3.5}, map[string]any{"sum": 5.5}, false},
				{"fail", map[string]any{"reason": "no disk"}, "failed: no disk", true},
				{"json", map[string]any{"k": []any{"v"}}, map[string]any{"k": []any{"v"}}, false},
			}
			for _, tt := range tests {
				res, err := p.Call(ctx, s, tt.tool, tt.args)
				if err != nil {
					t.Fatalf("%s: %v", tt.tool, err)
				}
				if got := res.Value(); !equalJSON(got, tt.want) || res.IsError != tt.isError {
					t.Errorf("%s: value %#v isError %v, want %#v %v", tt.tool, got, res.IsError, tt.want, tt.isError)
				}
			}
			if name == "stdio" {
				res, err := p.Call(ctx, s, "env", map[string]any{"name": "MCPTEST_WORD"})
				if err != nil || res.Text != "hello" {
					t.Errorf("the server's env: %q %v", res.Text, err)
				}
			}
		})
	}
}

// A session is opened once a server and reused by every later call.
func TestOneSessionPerServer(t *testing.T) {
	ctx := context.Background()
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	var p mcpclient.Pool
	defer p.Close()
	s := mcpclient.Server{Name: "web", URL: web.URL}
	first, err := p.Tools(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range first {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "echo,env,fail,json,record,sleep,sum,trace" {
		t.Errorf("tools %s", got)
	}
	for range 3 {
		if _, err := p.Call(ctx, s, "echo", map[string]any{"text": "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Calls.Load(); n != 3 {
		t.Errorf("%d calls reached the server, want 3", n)
	}
}

func TestConnectFailures(t *testing.T) {
	ctx := context.Background()
	tests := map[string]mcpclient.Server{
		"no such program":   {Name: "gone", Command: "/nonexistent/mcp-server"},
		"not an MCP server": {Name: "true", Command: trueProgram(t)},
		"nothing listening": {Name: "closed", URL: "http://127.0.0.1:1/mcp"},
		"neither":           {Name: "empty"},
	}
	for name, s := range tests {
		t.Run(name, func(t *testing.T) {
			var p mcpclient.Pool
			defer p.Close()
			_, err := p.Call(ctx, s, "echo", nil)
			var ce *mcpclient.ConnectError
			if !errors.As(err, &ce) || ce.Server != s.Name {
				t.Fatalf("err %v, want a ConnectError naming %s", err, s.Name)
			}
			if !strings.Contains(err.Error(), "MCP server "+s.Name) {
				t.Errorf("message %q does not name the server", err)
			}
		})
	}
}

// TestConnectErrorsRedactTheURL: a connection URL's credentials and
// query (where tokens travel) never show in an error, whichever form the
// transport quotes it in.
func TestConnectErrorsRedactTheURL(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{
		"http://admin:PwSecret1@127.0.0.1:1/mcp?token=QTOKEN1",
		"http://127.0.0.1:1/mcp?api_key=QTOKEN2&x=1",
		"http://ghp_USERTOKEN3@127.0.0.1:1/mcp#QTOKEN3",
	} {
		var p mcpclient.Pool
		_, err := p.Call(ctx, mcpclient.Server{Name: "remote", URL: u}, "echo", nil)
		p.Close()
		if err == nil {
			t.Fatalf("%s: connected", u)
		}
		for _, secret := range []string{"PwSecret", "QTOKEN", "USERTOKEN"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error shows it: %v", u, err)
			}
		}
		if !strings.Contains(err.Error(), "127.0.0.1:1/mcp") {
			t.Errorf("%s: the error no longer says where: %v", u, err)
		}
	}
}

func TestUnknownToolIsAnError(t *testing.T) {
	ctx := context.Background()
	srv := mcptest.New()
	mem, err := srv.InMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var p mcpclient.Pool
	defer p.Close()
	_, err = p.Call(ctx, mcpclient.Server{Name: "mem", Transport: mem}, "nope", nil)
	if err == nil || !strings.Contains(err.Error(), "tool nope") {
		t.Fatalf("err %v, want one naming the tool", err)
	}
}

func trueProgram(t *testing.T) string {
	p, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true program")
	}
	return p
}

func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !equalJSON(x[k], y[k]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}
