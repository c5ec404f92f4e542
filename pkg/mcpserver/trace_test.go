package mcpserver

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/tracectx"
)

func TestARunContinuesTheClientsTrace(t *testing.T) {
	const meta = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	const header = "00-11111111111111111111111111111111-2222222222222222-01"
	for _, tc := range []struct {
		name string
		req  *mcp.CallToolRequest
		want string
	}{
		{"_meta", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{"traceparent": meta, "tracestate": "v=1"}}}, meta},
		{"the HTTP header", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{}, Extra: &mcp.RequestExtra{Header: http.Header{"Traceparent": {header}}}}, header},
		{"_meta over the header", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{"traceparent": meta}}, Extra: &mcp.RequestExtra{Header: http.Header{"Traceparent": {header}}}}, meta},
		{"a malformed one", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{"traceparent": "garbage"}}}, ""},
		{"none", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{}}, ""},
		{"no request", nil, ""},
	} {
		got := tracectx.FromContext(withClientTrace(context.Background(), tc.req))
		if tc.want == "" {
			if got.IsValid() {
				t.Errorf("%s: a trace %v", tc.name, got)
			}
			continue
		}
		if got.Traceparent() != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got.Traceparent(), tc.want)
		}
	}
}
