package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// decisionKey names the one input request of a human decision.
const decisionKey = "decision"

// asked is the state a human decision's input request carries back: the
// run and the version it was asked at.
type asked struct {
	RunID   string `json:"run_id"`
	Version int    `json:"version"`
}

// ask turns a run paused at a human decision into a request for the
// person behind the client (elicitation, when the client declared it): a
// form with the transitions to choose from and the simple fields of their
// arguments. The SDK asks it (or, on protocols with multi round-trip
// requests, the client does) and calls the tool again with the answer,
// which decided reads. nil when there is nothing to ask or nobody to ask:
// then r's links are the answer.
func (s *Server) ask(req *mcp.CallToolRequest, r Response) *mcp.CallToolResult {
	if r.Status != string(run.Paused) || r.Error != "" || !canElicit(req) {
		return nil
	}
	sv, err := s.b.Get(r.RunID)
	if err != nil || sv.Version != r.Version {
		return nil
	}
	form, humans := decisionForm(r, sv.Chain)
	if len(humans) == 0 {
		return nil
	}
	state, _ := json.Marshal(asked{RunID: sv.RunID, Version: sv.Version})
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{decisionKey: &mcp.ElicitParams{Mode: "form", Message: decisionMessage(r), RequestedSchema: form}},
		RequestState: string(state)}
}

// decided takes the transition a person chose when asked (ask). A
// decline, or a run that moved meanwhile, leaves the run as it is and
// answers its links; again is false then, so that nobody is asked twice.
func (s *Server) decided(ctx context.Context, req *mcp.CallToolRequest) (r Response, again bool) {
	var st asked
	if err := json.Unmarshal([]byte(req.Params.RequestState), &st); err != nil || st.RunID == "" {
		return refused("bad requestState: not one this server gave", listLink()), false
	}
	sv, err := s.b.Get(st.RunID)
	if err != nil {
		return refused(err.Error(), listLink()), false
	}
	r = fromSaved(sv)
	if sv.Version != st.Version {
		r.Error = fmt.Sprintf("run %s moved while the decision was asked (version %d, not %d): choose again from these links", sv.RunID, sv.Version, st.Version)
		return r, false
	}
	res, _ := req.Params.InputResponses[decisionKey].(*mcp.ElicitResult)
	if res == nil || res.Action != "accept" {
		return r, false // declined: the run stays paused
	}
	_, humans := decisionForm(r, sv.Chain)
	t, _ := res.Content["transition"].(string)
	if humans[t] == nil {
		r.Error = fmt.Sprintf("the decision %q is not one of the run's links", t)
		return r, false
	}
	return s.resume(ctx, req, sv, Decision{Take: t, Args: chosenArgs(humans[t], res.Content)}), true
}

// canElicit reports whether the client declared elicitation by form.
func canElicit(req *mcp.CallToolRequest) bool {
	if req.Session == nil {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil)
}

// decisionMessage tells the person what the decision is for.
func decisionMessage(r Response) string {
	parts := []string{r.Name + ": decision at " + r.State}
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
// transitions (nil when the chain cannot be read: no argument fields).
func decisionForm(r Response, c *chain.Chain) (map[string]any, map[string]*chain.Transition) {
	humans := map[string]*chain.Transition{}
	var choices []any
	var state *chain.State
	if c != nil && c.Workflow != nil {
		state = c.Workflow.State(r.State)
	}
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
