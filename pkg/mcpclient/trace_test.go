package mcpclient_test

import (
	"context"
	"os"
	"testing"

	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// TestACallCarriesItsStepsTrace: a call made in a traced step tells the
// server its span, in the request's _meta on every transport and in the
// traceparent header over HTTP; an untraced call tells nothing.
func TestACallCarriesItsStepsTrace(t *testing.T) {
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tc, _ := tracectx.Parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "")
	tp := tc.Traceparent()
	for name, s := range map[string]struct {
		srv  mcpclient.Server
		want string
	}{
		"http":  {mcpclient.Server{Name: "web", URL: web.URL}, "meta=" + tp + " header=" + tp},
		"stdio": {mcpclient.Server{Name: "stdio", Command: self, Env: append(os.Environ(), "MCPTEST_SERVE=1")}, "meta=" + tp + " header="},
	} {
		t.Run(name, func(t *testing.T) {
			var p mcpclient.Pool
			defer p.Close()
			res, err := p.Call(tracectx.NewContext(context.Background(), tc), s.srv, "trace", nil)
			if err != nil || res.Text != s.want {
				t.Fatalf("traced: %q %v, want %q", res.Text, err, s.want)
			}
			res, err = p.Call(context.Background(), s.srv, "trace", nil)
			if err != nil || res.Text != "meta= header=" {
				t.Fatalf("untraced: %q %v", res.Text, err)
			}
		})
	}
}
