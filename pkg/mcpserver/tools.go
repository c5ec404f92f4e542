package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// object is a JSON Schema of an object with these properties.
func object(required []string, props map[string]any) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required // never null: clients' validators refuse it
	}
	return s
}

var (
	runIDProp = map[string]any{"type": "string", "description": "the run's id (or a part of it that only one run's id begins or ends with)"}
	// responseOut is built on first use: reflecting Response costs every
	// chainrun start half a millisecond when done at init
	responseOut = sync.OnceValue(outputSchema[Response])
)

// startArgs, takeArgs and runArgs are the arguments of the run tools.
type startArgs struct {
	Chain  string         `json:"chain"`
	Inputs map[string]any `json:"inputs"`
}

type takeArgs struct {
	RunID           string         `json:"run_id"`
	Transition      string         `json:"transition"`
	Arguments       map[string]any `json:"arguments"`
	Acknowledge     []string       `json:"acknowledge"`
	Rerun           []string       `json:"rerun"`
	ExpectedVersion *int           `json:"expected_version"`
}

type runArgs struct {
	RunID string `json:"run_id"`
}

// addFixedTools registers the tools every server has.
func (s *Server) addFixedTools() {
	s.mcp.AddTool(&mcp.Tool{Name: toolList, Title: "List chains",
		Description:  "Lists the chains this server runs: name, description, whether it is a workflow, its input schema, its own tool if it has one, and why it does not load when it does not.",
		InputSchema:  object(nil, map[string]any{}),
		OutputSchema: outputSchema[ChainList](),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true}}, s.listChains)
	s.addRunTool(&mcp.Tool{Name: toolStart, Title: "Start a run",
		Description: "Starts a chain as a new saved run and answers where it stands: at the end, at a decision point (status paused, with links), or still running after the soft deadline (call get_run).",
		InputSchema: object([]string{"chain"}, map[string]any{
			"chain":  map[string]any{"type": "string", "description": "the chain's name (list_chains)"},
			"inputs": map[string]any{"type": "object", "description": "the chain's inputs by name, as its input schema says"}})},
		func(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) Response {
			var a startArgs
			if err := decode(raw, &a); err != nil || a.Chain == "" {
				return refused(badArgs(err, "chain is required"), listLink())
			}
			return s.start(ctx, req, a.Chain, a.Inputs)
		})
	s.addRunTool(&mcp.Tool{Name: toolGet, Title: "Get a run",
		Description: "Answers how a run stands now, in the same response as start_run.",
		InputSchema: object([]string{"run_id"}, map[string]any{"run_id": runIDProp}), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		byRunID(s.get))
	s.addRunTool(&mcp.Tool{Name: toolTake, Title: "Take a transition",
		Description: "Takes a transition at the decision point a run paused at (one of its links), or retries what failed, and answers as start_run does. Without transition, a failed or interrupted run resumes where it stopped.",
		InputSchema: object([]string{"run_id"}, map[string]any{
			"run_id":           runIDProp,
			"transition":       map[string]any{"type": "string", "description": "the link's transition"},
			"arguments":        map[string]any{"type": "object", "description": "the transition's arguments, when it takes some"},
			"acknowledge":      map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "subjects whose bodies (guidance.acknowledge) you have read, acknowledged before the transition: its guards may wait for them"},
			"rerun":            map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "steps that are not idempotent and may already have done their work (the run stopped while they ran): naming them confirms they run again; a link that needs it carries it"},
			"expected_version": map[string]any{"type": "integer", "description": "the version of the response the choice was made on: a run that moved since is refused, with its current links"}})},
		func(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) Response {
			var a takeArgs
			if err := decode(raw, &a); err != nil || a.RunID == "" {
				return refused(badArgs(err, "run_id is required"), listLink())
			}
			return s.take(ctx, req, a)
		})
	s.addRunTool(&mcp.Tool{Name: toolCancel, Title: "Cancel a run",
		Description: "Stops a run this server is running: its steps are stopped and it is saved as interrupted (take_transition resumes it). A paused run is left as it is.",
		InputSchema: object([]string{"run_id"}, map[string]any{"run_id": runIDProp}), Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		byRunID(s.cancel))
}

// byRunID is the handler of a tool whose one argument is run_id.
func byRunID(f func(ref string) Response) func(context.Context, *mcp.CallToolRequest, json.RawMessage) Response {
	return func(_ context.Context, _ *mcp.CallToolRequest, raw json.RawMessage) Response {
		var a runArgs
		if err := decode(raw, &a); err != nil || a.RunID == "" {
			return refused(badArgs(err, "run_id is required"), listLink())
		}
		return f(a.RunID)
	}
}

func ptr[T any](v T) *T { return &v }

// addRunTool registers a tool that answers a Response.
func (s *Server) addRunTool(t *mcp.Tool, h func(context.Context, *mcp.CallToolRequest, json.RawMessage) Response) {
	t.OutputSchema = responseOut()
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var r Response
		again := true
		if req.Params.RequestState != "" { // the answer to a decision asked
			r, again = s.decided(ctx, req)
		} else {
			r = h(ctx, req, req.Params.Arguments)
		}
		if again && multiRoundTrip(req) {
			if q := s.ask(req, r); q != nil {
				return q, nil
			}
		} else if again {
			r = s.converse(ctx, req, r)
		}
		return answer(r), nil
	})
}

// decode reads a tool's arguments, refusing unknown ones.
func decode(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// badArgs says what is wrong with a tool's arguments.
func badArgs(err error, missing string) string {
	if err != nil {
		return "bad arguments: " + err.Error()
	}
	return "bad arguments: " + missing
}

// start starts chain name with inputs and answers as the call's wait ends.
func (s *Server) start(ctx context.Context, req *mcp.CallToolRequest, name string, in map[string]any) Response {
	if problem, ok := s.chainProblem(name); !ok {
		return refused(problem, listLink())
	}
	inputs := inputText(in)
	secret := s.secretInputs(name, inputs)
	a := s.launch(name, func(ctx context.Context, sink event.Sink) (*record.Result, error) {
		res, err := s.b.Start(withClientTrace(ctx, req), name, inputs, sink)
		if res != nil && len(secret) > 0 {
			s.mu.Lock()
			s.secrets[res.RunID] = secret
			s.mu.Unlock()
		}
		return res, err
	})
	return s.await(ctx, req, a, func(err error) Response {
		return refused(err.Error(), Link{Title: "Start " + name + " again with inputs its schema accepts", Tool: toolStart,
			Arguments: map[string]any{"chain": name, "inputs": in}}, listLink())
	})
}

// inputText is the inputs as --input gives them: text, converted to the
// types the chain declares when the run starts.
func inputText(in map[string]any) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		if text, ok := v.(string); ok {
			out[k] = text
			continue
		}
		data, _ := json.Marshal(v)
		out[k] = string(data)
	}
	return out
}

// get answers how run ref stands.
func (s *Server) get(ref string) Response {
	if a := s.running(ref); a != nil {
		return s.progress(a)
	}
	sv, err := s.b.Get(ref)
	if err != nil {
		return refused(err.Error(), listLink())
	}
	if a := s.running(sv.RunID); a != nil {
		return s.progress(a)
	}
	return fromSaved(sv)
}

// fromSaved is the response of a saved run.
func fromSaved(sv *Saved) Response {
	if sv.Result == nil {
		return Response{RunID: sv.RunID, Version: sv.Version, Status: string(sv.Status), Name: sv.Name,
			Chain: []response.ChainEntry{}, Links: []Link{getLink(sv.RunID)}}
	}
	r := fromResult(sv.Result, sv.Version)
	r.RunID, r.Status = sv.RunID, string(sv.Status) // a crashed run is interrupted, whatever its last result said
	return r
}

// take takes a transition of a saved run, refusing a stale version.
func (s *Server) take(ctx context.Context, req *mcp.CallToolRequest, a takeArgs) Response {
	if r := s.running(a.RunID); r != nil {
		return busy(s.progress(r))
	}
	sv, err := s.b.Get(a.RunID)
	if err != nil {
		return refused(err.Error(), listLink())
	}
	if r := s.running(sv.RunID); r != nil {
		return busy(s.progress(r))
	}
	if a.ExpectedVersion != nil && *a.ExpectedVersion != sv.Version {
		r := fromSaved(sv)
		r.Error = fmt.Sprintf("stale version: run %s is at version %d, not %d; it moved since that response: choose again from these links", sv.RunID, sv.Version, *a.ExpectedVersion)
		return r
	}
	return s.resume(ctx, req, sv, Decision{Take: a.Transition, Args: a.Arguments, Acks: a.Acknowledge, Rerun: a.Rerun})
}

// secretInputs are the inputs of chain name, among those given, that are
// secret.
func (s *Server) secretInputs(name string, given map[string]string) map[string]string {
	s.mu.Lock()
	cat := s.cat
	s.mu.Unlock()
	out := map[string]string{}
	for _, f := range cat.Files {
		if f.Name != name || f.Err != nil {
			continue
		}
		for k, v := range given {
			if in := f.Loaded.Chain.Input(k); in != nil && in.Secret {
				out[k] = v
			}
		}
	}
	return out
}

// resume continues sv as d decides, answering as the wait ends.
func (s *Server) resume(ctx context.Context, req *mcp.CallToolRequest, sv *Saved, d Decision) Response {
	s.mu.Lock()
	d.Secrets = s.secrets[sv.RunID]
	s.mu.Unlock()
	a := s.launch(sv.Name, func(ctx context.Context, sink event.Sink) (*record.Result, error) {
		return s.b.Resume(withClientTrace(ctx, req), sv.RunID, d, sink)
	})
	return s.await(ctx, req, a, func(err error) Response {
		r := fromSaved(sv)
		r.Error = plainError(err)
		if rerun, ok := errors.AsType[*response.RerunError](err); ok {
			r.Links = []Link{rerunLink(sv, d, rerun)}
		}
		if t, ok := errors.AsType[terminalOnly](err); ok && t.NeedsTerminal() {
			r.Links = []Link{getLink(sv.RunID)} // no take can go on: none is offered
		}
		return r
	})
}

// busy is the answer to a take on a run still going.
func busy(r Response) Response {
	r.Error = "run " + r.RunID + " is still running: wait for it (get_run), or cancel it (cancel_run)"
	return r
}

// cancel stops a run this server runs.
func (s *Server) cancel(ref string) Response {
	a := s.running(ref)
	if a == nil {
		sv, err := s.b.Get(ref)
		if err != nil {
			return refused(err.Error(), listLink())
		}
		if a = s.running(sv.RunID); a == nil {
			r := fromSaved(sv)
			r.Error = fmt.Sprintf("run %s is not running in this server (it is %s): there is nothing to cancel", sv.RunID, sv.Status)
			return r
		}
	}
	a.stop()
	<-a.done
	return s.finished(a, func(err error) Response { return refused(err.Error(), getLink(a.runID())) })
}
