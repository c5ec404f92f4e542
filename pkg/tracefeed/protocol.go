package tracefeed

import "github.com/chainrun/chainrun/pkg/event"

// Hello is the feed's first line: where and how to export.
type Hello struct {
	Settings Settings `json:"settings"`
	// Version is chainrun's (service.version).
	Version string `json:"version"`
}

// Line is every later line of the feed, about one run (Run numbers the
// runs of one chainrun process): its opening, one of its events, or its
// end.
type Line struct {
	Run   int          `json:"run"`
	Open  *Opening     `json:"open,omitempty"`
	Event *event.Event `json:"event,omitempty"`
	// End is the command's exit code, when the run's span ends with the
	// process; -1 for none.
	End *int `json:"end,omitempty"`
}

// Opening begins a run's trace.
type Opening struct {
	// Trace is the traceparent of the run's own span: chainrun chose its
	// trace id (the parent's, or a new one) and derived the span's id, and
	// has handed both to the run's commands already.
	Trace string `json:"trace"`
	State string `json:"state,omitempty"`
	// Parent is the traceparent the run continues (TRACEPARENT, an MCP
	// client's request), empty for none.
	Parent string `json:"parent,omitempty"`
	// Earlier are the traceparents of the run's earlier attempts.
	Earlier []string `json:"earlier,omitempty"`
	// Served is a run chainrun mcp serves: its span ends with it.
	Served bool `json:"served,omitempty"`
}
