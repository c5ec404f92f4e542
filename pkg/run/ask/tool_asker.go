package ask

import "context"

// ToolCallRequest is a tool call outside a step's tools, as a person is
// asked to allow it: exactly that call, named by its arguments' digest.
type ToolCallRequest struct {
	RunID     string
	Step      string
	Tool      string
	Arguments string
	Digest    string
}

// ToolAsker asks whether one tool call outside a step's tools may run. It
// is called concurrently when a turn's calls run together: the asker
// owns the terminal and puts its questions in turn.
type ToolAsker func(ctx context.Context, r ToolCallRequest) (bool, error)
