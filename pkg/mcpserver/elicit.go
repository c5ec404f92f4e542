package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// decisionKey names the one input request of a human decision.
const decisionKey = "decision"

// asked is the state a human decision's input request carries back: the
// run and the version it was asked at.
type asked struct {
	RunID   string `json:"run_id"`
	Version int    `json:"version"`
}

// question is the input request for the person behind the client (by
// form, when the client declared elicitation) of the human decision r
// waits at: the transitions to choose from and the simple fields of
// their arguments, built from the decision the run actually waits on
// (inside the workflow a workflow step runs, when it stopped there). nil
// when there is nothing to ask or nobody to ask: then r's links are the
// answer.
func (s *Server) question(req *mcp.CallToolRequest, r Response) (*mcp.ElicitParams, *Saved) {
	if r.Status != string(record.Paused) || !canElicit(req) {
		return nil, nil
	}
	sv, err := s.b.Get(r.RunID)
	if err != nil || sv.Version != r.Version {
		return nil, nil
	}
	form, humans := decisionForm(r, s.waitingState(sv))
	if len(humans) == 0 {
		return nil, nil
	}
	return &mcp.ElicitParams{Mode: "form", Message: decisionMessage(r, sv), RequestedSchema: form}, sv
}

// ask turns a run paused at a human decision into the input request of
// a protocol with multi round-trip requests: the client asks the person
// and calls the tool again with the answer, which decided reads. nil
// when there is nothing to ask.
func (s *Server) ask(req *mcp.CallToolRequest, r Response) *mcp.CallToolResult {
	if r.Error != "" {
		return nil
	}
	q, sv := s.question(req, r)
	if q == nil {
		return nil
	}
	state, _ := json.Marshal(asked{RunID: sv.RunID, Version: sv.Version})
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{decisionKey: q}, RequestState: string(state)}
}

// maxRefusals is how many answers in a row a decision asked in a call
// may refuse before the call answers with the refusal and the links.
const maxRefusals = 3

// converse asks the person each human decision r waits at, in turn, on a
// protocol without multi round-trip requests (the server asks the client
// while the call waits): until one is declined, the run no longer waits
// for a person, or maxRefusals answers in a row were refused (an answer
// the form's schema or the transition refuses is said in the next
// question). Whatever happens, the answer is a response: the run's id,
// where it stands, the error and its links, never a protocol error.
func (s *Server) converse(ctx context.Context, req *mcp.CallToolRequest, r Response) Response {
	if r.Error != "" {
		return r
	}
	problem := ""
	for refusals := 0; refusals < maxRefusals; {
		q, sv := s.question(req, r)
		if q == nil {
			return r
		}
		if problem != "" {
			q.Message = "Your answer was not taken: " + problem + "\n\n" + q.Message
		}
		res, err := req.Session.Elicit(ctx, q)
		if err != nil {
			if ctx.Err() != nil {
				return r
			}
			refusals++
			problem = "the answer does not fit the form: " + err.Error()
			r.Error = problem + "; answer again, or take one of these links"
			continue
		}
		next, took := s.answered(ctx, req, sv, sv.Version, res)
		if !took {
			return next
		}
		r = next
		if r.Error == "" {
			refusals, problem = 0, ""
			continue
		}
		refusals++
		problem = r.Error
	}
	return r
}

// decided takes the transition a person chose when asked by a multi
// round-trip request (ask). An answer outside the form, a decline, or a
// run that moved meanwhile, leaves the run as it is and answers its links;
// again is false then, so that nobody is asked twice.
func (s *Server) decided(ctx context.Context, req *mcp.CallToolRequest) (r Response, again bool) {
	var st asked
	if err := json.Unmarshal([]byte(req.Params.RequestState), &st); err != nil || st.RunID == "" {
		return refused("bad requestState: not one this server gave", listLink()), false
	}
	sv, err := s.b.Get(st.RunID)
	if err != nil {
		return refused(err.Error(), listLink()), false
	}
	res, _ := req.Params.InputResponses[decisionKey].(*mcp.ElicitResult)
	if res != nil && res.Action == "accept" {
		form, _ := decisionForm(fromSaved(sv), s.waitingState(sv))
		if problem := outsideForm(form, res.Content); problem != "" {
			r = fromSaved(sv)
			r.Error = "the answer does not fit the form: " + problem + "; take one of these links"
			return r, false
		}
	}
	return s.answered(ctx, req, sv, st.Version, res)
}

// answered takes the transition of res, the person's answer to the
// decision sv waited at at version. took is false when nothing was
// taken: declined, the run moved meanwhile, or no such link.
func (s *Server) answered(ctx context.Context, req *mcp.CallToolRequest, sv *Saved, version int, res *mcp.ElicitResult) (r Response, took bool) {
	r = fromSaved(sv)
	if sv.Version != version {
		r.Error = fmt.Sprintf("run %s moved while the decision was asked (version %d, not %d): choose again from these links", sv.RunID, sv.Version, version)
		return r, false
	}
	if res == nil || res.Action != "accept" {
		return r, false // declined: the run stays paused
	}
	_, humans := decisionForm(r, s.waitingState(sv))
	t, _ := res.Content["transition"].(string)
	if humans[t] == nil {
		r.Error = fmt.Sprintf("the decision %q is not one of the run's links", t)
		return r, false
	}
	return s.resume(ctx, req, sv, Decision{Take: t, Args: chosenArgs(humans[t], res.Content)}), true
}

// outsideForm says why content does not satisfy the form's schema, ""
// when it does.
func outsideForm(form map[string]any, content map[string]any) string {
	data, err := json.Marshal(form)
	if err != nil {
		return err.Error()
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(data, &sch); err != nil {
		return err.Error()
	}
	rs, err := sch.Resolve(nil)
	if err != nil {
		return err.Error()
	}
	if err := rs.Validate(content); err != nil {
		return err.Error()
	}
	return ""
}

// waitingState is the state whose decision sv waits on: the run's own,
// or, when it stopped inside workflows that workflow steps run (within,
// outermost first), the innermost one's, found beside the chain that
// runs it or in the chains directory. nil when it cannot be found.
func (s *Server) waitingState(sv *Saved) *chain.State {
	c := sv.Chain
	if c == nil || c.Workflow == nil || sv.Result == nil || sv.Result.WorkflowResult == nil {
		return nil
	}
	wr := sv.Result.WorkflowResult
	state := wr.State
	for _, in := range wr.Within {
		if c = s.workflowNamed(c, in.Workflow); c == nil || c.Workflow == nil {
			return nil
		}
		state = in.State
	}
	return c.Workflow.State(state)
}

// workflowNamed is the workflow a workflow step of c runs by name: one
// of c's file, else one of the chains directory.
func (s *Server) workflowNamed(c *chain.Chain, name string) *chain.Chain {
	if c.Name == name {
		return c
	}
	if w := c.Sibling(name); w != nil {
		return w
	}
	s.mu.Lock()
	cat := s.cat
	s.mu.Unlock()
	if cat == nil {
		return nil
	}
	for _, f := range cat.Files {
		if f.Err != nil || f.Loaded == nil {
			continue
		}
		if f.Loaded.Chain.Name == name {
			return f.Loaded.Chain
		}
		if w := f.Loaded.Chain.Sibling(name); w != nil {
			return w
		}
	}
	return nil
}

// canElicit reports whether the client declared elicitation by form.
func canElicit(req *mcp.CallToolRequest) bool {
	if req.Session == nil {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil)
}

// decisionMessage tells the person what the decision is for, and where
// it is when the run stopped inside a workflow a workflow step runs.
func decisionMessage(r Response, sv *Saved) string {
	where := r.Name + ": decision at " + r.State
	if sv.Result != nil && sv.Result.WorkflowResult != nil {
		if in := sv.Result.WorkflowResult.Within; len(in) > 0 {
			where += fmt.Sprintf(" (in workflow %s, at %s)", in[len(in)-1].Workflow, in[len(in)-1].State)
		}
	}
	parts := []string{where}
	if g := r.Guidance; g != nil {
		for _, p := range []string{g.Goal, g.Instructions} {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// decisionForm is the form of a human decision: a transition field
// whose choices are the links waiting for a human, then the fields of
// their arguments a form can hold (strings, numbers, booleans), none
// required since each belongs to one choice. humans are those links'
// transitions, looked up in state, the state whose decision the run
// waits on (nil when it cannot be read: no argument fields).
func decisionForm(r Response, state *chain.State) (map[string]any, map[string]*chain.Transition) {
	humans := map[string]*chain.Transition{}
	var choices []any
	props := map[string]any{}
	for _, l := range r.Links {
		if l.Actor != chain.ActorHuman || l.Blocked != "" || l.Transition == "" {
			continue
		}
		t := &chain.Transition{Name: l.Transition}
		if state != nil && state.Transition(l.Transition) != nil {
			t = state.Transition(l.Transition)
		}
		humans[l.Transition] = t
		choices = append(choices, map[string]any{"const": l.Transition, "title": l.Title})
		for name, p := range simpleFields(t.InputSchema) {
			if _, taken := props[name]; !taken {
				props[name] = p
			}
		}
	}
	props["transition"] = map[string]any{"type": "string", "title": "Decision", "oneOf": choices}
	return map[string]any{"type": "object", "properties": props, "required": []string{"transition"}}, humans
}

// simpleFields are the properties of an arguments schema that a form can
// ask for: strings, numbers, integers and booleans.
func simpleFields(schema map[string]any) map[string]any {
	out := map[string]any{}
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		switch pm["type"] {
		case "string", "number", "integer", "boolean":
			field := map[string]any{"type": pm["type"]}
			for _, k := range []string{"title", "description", "enum", "default", "minimum", "maximum"} {
				if v, ok := pm[k]; ok && (k != "enum" || pm["type"] == "string") {
					field[k] = v
				}
			}
			out[name] = field
		}
	}
	return out
}

// chosenArgs are the form's answers that are arguments of t.
func chosenArgs(t *chain.Transition, content map[string]any) map[string]any {
	fields := simpleFields(t.InputSchema)
	var args map[string]any
	for name, v := range content {
		if _, ok := fields[name]; ok {
			if args == nil {
				args = map[string]any{}
			}
			args[name] = v
		}
	}
	return args
}

// multiRoundTripSince is the first protocol version with multi round-trip
// requests: a client on it asks the person itself (ask), and a server may
// not send it requests of its own while serving a call.
const multiRoundTripSince = "2026-07-28"

// multiRoundTrip reports whether the client's protocol has multi
// round-trip requests.
func multiRoundTrip(req *mcp.CallToolRequest) bool {
	if req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	return p != nil && p.ProtocolVersion >= multiRoundTripSince
}
