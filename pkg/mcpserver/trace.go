package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/tracectx"
)

// withClientTrace carries into ctx the trace a client's tool call belongs
// to, so that the run it starts or resumes continues it: the W3C
// traceparent (and tracestate) of the request's _meta, as MCP clients
// instrumented with OpenTelemetry send it, else of its HTTP headers
// (streamable HTTP). A malformed one is ignored.
func withClientTrace(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req == nil {
		return ctx
	}
	if req.Params != nil {
		tp, _ := req.Params.Meta["traceparent"].(string)
		ts, _ := req.Params.Meta["tracestate"].(string)
		if c, err := tracectx.Parse(tp, ts); err == nil {
			return tracectx.NewContext(ctx, c)
		}
	}
	if req.Extra != nil && req.Extra.Header != nil {
		if c, err := tracectx.Parse(req.Extra.Header.Get("traceparent"), req.Extra.Header.Get("tracestate")); err == nil {
			return tracectx.NewContext(ctx, c)
		}
	}
	return ctx
}
