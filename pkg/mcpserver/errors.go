package mcpserver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/run/response"
)

// plain is an error the engine words for the command line (--take, --arg,
// --ack) worded for an MCP client, who gives none of those flags: every
// error a call answers speaks of the tools' arguments.
type plain interface {
	error
	Plain() string
}

// terminalOnly is an error only a person at a terminal can get past (a
// secret input the run needs again, never saved): a call offers no take.
type terminalOnly interface {
	error
	NeedsTerminal() bool
}

// plainError is err as a call answers it.
func plainError(err error) string {
	if e, ok := errors.AsType[*response.RerunError](err); ok {
		return fmt.Sprintf("step %s is not idempotent and may already have done its work (it started and did not succeed): check, then call take_transition again with rerun %s to run it again",
			strings.Join(e.Steps, ", "), quoted(e.Steps))
	}
	if e, ok := errors.AsType[plain](err); ok {
		return e.Plain()
	}
	return err.Error()
}

// rerunLink is the take that confirms the steps e names run again: the
// decision d tried, with rerun.
func rerunLink(sv *Saved, d Decision, e *response.RerunError) Link {
	args := map[string]any{"run_id": sv.RunID, "rerun": e.Steps, "expected_version": sv.Version}
	if e.Take != "" {
		args["transition"] = e.Take
	}
	if len(d.Args) > 0 {
		args["arguments"] = d.Args
	}
	if len(d.Acks) > 0 {
		args["acknowledge"] = d.Acks
	}
	return Link{Transition: e.Take, Title: "Run " + strings.Join(e.Steps, ", ") + " again (confirmed)", Tool: toolTake, Arguments: args}
}

// quoted is names as a JSON list.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
