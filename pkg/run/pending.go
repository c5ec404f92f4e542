package run

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// A pending definition is what a valid file names but leaves to where it
// runs: a script found in no scripts: library, a connection that neither
// the file nor the config declares. mcp-flowgate loads such a file (its
// gateway keeps a PENDING_DEFINITION placeholder, its operators wire the
// connections), so validate only warns of one; a run refuses it before
// anything runs, so nothing is half-run for want of it.

// PendingDefinitions lists the pending definitions of c and of the workflows it
// calls, each as a warning at the step that names it, in the order the
// steps come. validate shows them; a run stops at the first.
func PendingDefinitions(c *chain.Chain, r Resolvers) []chain.Diagnostic {
	var out []chain.Diagnostic
	seen := map[chain.Diagnostic]bool{}
	r.pending = func(e *response.PreflightError) {
		why := "running it would stop here"
		if e.Unreachable {
			why = "its state is unreachable, so no run needs it"
		}
		d := chain.Diagnostic{File: e.File, Pos: e.Pos, Warning: true,
			Message: fmt.Sprintf("%s: %s (%s)", e.Subject(), e.Msg, why)}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	_ = preflight(nil, c, r, nil) // its errors are CheckCalls'
	return out
}

// Deferred hands a pending definition to whoever collects them (PendingDefinitions),
// or returns it as the run's refusal.
func (r Resolvers) Deferred(e *response.PreflightError) error {
	if r.pending == nil {
		return e
	}
	r.pending(e)
	return nil
}

// preflightUnregistered refuses a run that could reach an executor of a
// kind chainrun does not have (a workflows: file loads with one, as
// mcp-flowgate's does); one no run reaches is named as pending.
func preflightUnregistered(c *chain.Chain, s *chain.Step, r Resolvers) error {
	return r.Deferred(&response.PreflightError{Kind: response.Pending, File: c.File, Pos: s.Pos, Step: s.ID, Who: s.Who(), Msg: s.UnregisteredMessage()})
}

// preflightMCP checks an mcp step names a tool (a workflow's executor
// may not: mcp-flowgate loads it and fails it when it runs), then its
// connection.
func preflightMCP(c *chain.Chain, s *chain.Step, r Resolvers) error {
	if s.Kind == chain.KindMCP && chain.KeyValue(s, "tool") == "" {
		msg := `tool is not set: the mcp executor calls no tool (mcp-flowgate loads it and fails it when it runs: "mcp executor needs tool")`
		if err := r.Deferred(&response.PreflightError{Kind: response.Pending, File: c.File, Pos: s.Pos, Step: s.ID, Who: s.Who(), Msg: msg}); err != nil {
			return err
		}
	}
	return preflightConnection(c, s, r)
}

// preflightConnection checks that the mcp or rest connection a step names
// is declared: by its file, or by the config for a file that declares
// none (the chain's validation refuses the rest).
func preflightConnection(c *chain.Chain, s *chain.Step, r Resolvers) error {
	if s.HTTP().Connection == "" || c.Connections[s.HTTP().Connection] != nil {
		return nil
	}
	kind := chain.ConnREST
	if s.Kind == chain.KindMCP {
		kind = chain.ConnMCP
	}
	var names []string
	for _, name := range slices.Sorted(maps.Keys(c.Connections)) {
		if c.Connections[name].Kind == kind {
			names = append(names, name)
		}
	}
	msg := fmt.Sprintf("no %s connection is named %q: declare it under connections: in the config file (or the chain file)", kind, s.HTTP().Connection)
	if len(names) > 0 {
		msg += fmt.Sprintf("%s; the config's %s connections: %s", chain.DidYouMean(s.HTTP().Connection, names), kind, strings.Join(names, ", "))
	}
	return r.Deferred(&response.PreflightError{Kind: response.Pending, File: c.File, Pos: s.At("connection"), Step: s.ID, Who: s.Who(), Msg: msg})
}

// pendingAt is the pending definition a step names itself, if any, for a
// dry run to show where a run would be refused.
func (l *Local) pendingAt(c *chain.Chain, s *chain.Step) string {
	var msg string
	r := Resolvers{Scripts: l.Scripts, pending: func(e *response.PreflightError) { msg = e.Msg }}
	if s.Unregistered() != "" {
		_ = preflightUnregistered(c, s, r)
		return msg
	}
	switch s.Kind {
	case chain.KindScript:
		if err := preflightScript(c, s, r); err != nil {
			var pe *response.PreflightError
			if errors.As(err, &pe) {
				return pe.Msg
			}
			return err.Error()
		}
	case chain.KindMCP, chain.KindHTTP:
		_ = preflightMCP(c, s, r)
	}
	return msg
}
