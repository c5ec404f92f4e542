package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/retry"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// askModel offers the links to a model as a tool whose argument is an
// enum of their names, with the goal, guidance and context. When a
// transition waits for acknowledgments (wait), or an acknowledgment guard
// of a link names a subject, the model is also offered the describe tool,
// which answers a subject's body and records its acknowledgment; a
// waiting transition it chooses before that is refused with why, and it
// is asked again.
func (f *flow) askModel(ctx context.Context, s *chain.State, offered []*chain.Transition, wait []candidate, model string) (*chain.Transition, string, error) {
	target, err := f.Engine.Models.Target(model)
	if err != nil {
		return nil, model, err
	}
	target.Provider = llm.Budgeted(target.Provider, f.Budget)
	ctx = llm.WithCaller(ctx, "decision "+s.Name)
	all := slices.Clone(offered)
	for _, c := range wait {
		all = append(all, c.t)
	}
	d := f.decision(s, all)
	d.Links = append(linksOf(offered), waitingLinks(wait)...)
	names := make([]any, len(all))
	props := map[string]any{
		"transition": map[string]any{"type": "string", "enum": names, "description": "the transition to take"},
		"reason":     map[string]any{"type": "string", "description": "why, in one sentence"},
	}
	prompt := decisionPrompt(d)
	for i, t := range all {
		names[i] = t.Name
		if t.InputSchema != nil {
			props["arguments"] = map[string]any{"type": "object", "description": "the arguments of the chosen transition, as its JSON Schema above says"}
			if text, err := json.Marshal(t.InputSchema); err == nil {
				prompt += fmt.Sprintf("\nArguments of %s (JSON Schema): %s\n", t.Name, text)
			}
		}
	}
	req := llm.Request{
		Model:    target.Model,
		System:   "You decide the next step of a workflow run by calling " + decisionTool + " with one of the offered transitions.",
		Messages: []llm.Message{{Role: llm.User, Content: prompt}},
		Tools: []llm.Tool{{
			Name:        decisionTool,
			Description: "Take one of the transitions offered at this decision point.",
			Schema: map[string]any{
				"type":                 "object",
				"properties":           props,
				"required":             []any{"transition"},
				"additionalProperties": false,
			},
		}},
		ToolChoice: decisionTool,
		MaxTokens:  1024,
	}
	subjects := chain.AckSubjectsOf(all...)
	if len(subjects) > 0 {
		req.Tools = append(req.Tools, describeToolOf(subjects))
		req.ToolChoice = llm.ToolChoiceRequired
		req.System += " A transition that waits for acknowledgments can be taken once you have called " + describeTool + " for each subject it names, which shows you its body."
	}
	observe := func(a llm.Attempt) {
		f.decisionUsage.InputTokens += a.Usage.InputTokens
		f.decisionUsage.OutputTokens += a.Usage.OutputTokens
		if a.Sent() {
			f.decisionUsage.LLMCalls++
		}
		e := event.Event{Type: event.LLMCall, State: s.Name, Attempt: a.Number, Model: a.Target.Label(), Status: event.OK,
			DurationMS: a.Duration.Milliseconds(), InputTokens: a.Usage.InputTokens, OutputTokens: a.Usage.OutputTokens, Detail: "decision"}
		if a.Err != nil {
			e.Status, e.Error = event.Failed, a.Err.Error()
		}
		f.DescribeRequest(&e, a, &f.decisionUsage)
		f.Emit(e)
	}
	var chosen *chain.Transition
	var name string
	var why refusal
	err = retry.Do(ctx, decisionPolicy, retry.Hooks{Retryable: func(err error) bool { return errors.Is(err, errNotOffered) }},
		func(int) error {
			for reads := 0; ; reads++ {
				// each question has the default allowance of requests
				resp, err := llm.WithRetry(target, llm.DefaultPolicy, observe).Complete(ctx, req)
				if err != nil {
					return err
				}
				read := f.describeCalls(resp, subjects, "model:"+target.Label())
				answer := llm.Message{Role: llm.Assistant, Content: resp.Text, ToolCalls: resp.ToolCalls}
				if len(read) > 0 && !called(resp, decisionTool) && reads <= len(subjects) {
					// it read bodies: it chooses next
					req.Messages = append(req.Messages, answer, retryDecision(resp, "Call "+decisionTool+" once you have read what you need.", read))
					continue
				}
				var given map[string]any
				name, given = chosenTransition(resp)
				if chosen, why = f.pick(s, all, wait, name, given); chosen != nil {
					return nil
				}
				req.Messages = append(req.Messages, answer, retryDecision(resp, why.forModel(), read))
				return errNotOffered
			}
		})
	if errors.Is(err, errNotOffered) {
		names := make([]string, len(all))
		for i, t := range all {
			names[i] = t.Name
		}
		err = &undecided{model: target.Label(), answers: decisionPolicy.Attempts, last: name, why: why.why, offered: names}
	}
	return chosen, target.Label(), err
}

// refusal is why a model's answer took no transition: why for a person
// (empty when naming the offered ones says it), ask what the model is
// told to do instead.
type refusal struct{ why, ask string }

// forModel is what the model is told of its refused answer.
func (r refusal) forModel() string {
	if r.why == "" {
		return r.ask
	}
	return r.why + ". " + r.ask
}

// undecided is a model whose answers named no transition that can be
// taken: the decision is left to a person. Its message quotes the last
// answer once, on one line, cut short: an answer may echo the whole
// prompt, quotes and all.
type undecided struct {
	model     string
	answers   int
	last, why string
	offered   []string
}

// maxQuotedAnswer bounds, in characters, the answer an undecided quotes.
const maxQuotedAnswer = 80

func (u *undecided) Error() string {
	last := strings.Join(strings.Fields(u.last), " ")
	if r := []rune(last); len(r) > maxQuotedAnswer {
		last = string(r[:maxQuotedAnswer-1]) + "…"
	}
	msg := fmt.Sprintf("%s named no transition that can be taken in %d answers, so a person decides; its last answer: %q", u.model, u.answers, last)
	if u.why != "" {
		msg += ": " + u.why
	}
	return msg + " (offered: " + strings.Join(u.offered, ", ") + ")"
}

// pick is the offered transition the model named, with the arguments it
// gave set; else what to tell it. A transition that waits for
// acknowledgments is checked again: the model may have described since.
func (f *flow) pick(s *chain.State, offered []*chain.Transition, wait []candidate, name string, given map[string]any) (*chain.Transition, refusal) {
	for _, t := range offered {
		if t.Name != name {
			continue
		}
		if slices.ContainsFunc(wait, func(c candidate) bool { return c.t == t }) {
			if c := f.assess1(t, f.guardFacts(s)); !c.ok {
				return nil, refusal{fmt.Sprintf("%s cannot be taken yet: %s", name, c.why), fmt.Sprintf("Call %s for the subjects it names, then %s again.", describeTool, decisionTool)}
			}
		}
		args, err := f.decisionArgs(t, given)
		if err != nil {
			return nil, refusal{plainArgs(err), "Call " + decisionTool + " again with arguments that satisfy it."}
		}
		f.useArgs(args)
		return t, refusal{}
	}
	return nil, refusal{ask: notOffered(name, offered)}
}

// errNotOffered is an answer that names no offered transition: the model
// is told what was wrong and asked again.
var errNotOffered = errors.New("no offered transition named")

// chosenTransition reads the model's choice, and the arguments it gave,
// from its tool call, or its choice from its text when it answered
// without one.
func chosenTransition(resp *llm.Response) (string, map[string]any) {
	for _, call := range resp.ToolCalls {
		if call.Name != decisionTool {
			continue
		}
		var args struct {
			Transition string         `json:"transition"`
			Arguments  map[string]any `json:"arguments"`
		}
		if json.Unmarshal([]byte(call.Arguments), &args) == nil {
			return args.Transition, args.Arguments
		}
	}
	return strings.Trim(strings.TrimSpace(resp.Text), ".\"'`"), nil
}

// notOffered tells the model its answer named no offered transition.
func notOffered(name string, offered []*chain.Transition) string {
	names := make([]string, len(offered))
	for i, t := range offered {
		names[i] = t.Name
	}
	// the answer cut short: the model told its whole answer back, quoted,
	// would echo it again, each time escaped once more
	return fmt.Sprintf("%q is not one of the offered transitions. Call %s with one of: %s.", record.Clip(name, maxQuotedAnswer), decisionTool, strings.Join(names, ", "))
}

// retryDecision tells the model what was wrong with its answer, on the
// same transcript: the results of its describe calls (read, by call id),
// and msg for its other calls.
func retryDecision(resp *llm.Response, msg string, read map[string]llm.ToolResult) llm.Message {
	var results []llm.ToolResult
	for _, call := range resp.ToolCalls {
		if r, ok := read[call.ID]; ok {
			results = append(results, r)
			continue
		}
		results = append(results, llm.ToolResult{CallID: call.ID, Content: msg, IsError: true})
	}
	if len(results) > 0 {
		return llm.Message{Role: llm.User, ToolResults: results}
	}
	return llm.Message{Role: llm.User, Content: msg}
}

// describeTool is the tool a deciding model reads a subject's body with,
// which acknowledges it (mcp-flowgate's gateway.describe).
const describeTool = "describe"

// describeToolOf offers the subjects the links' acknowledgment guards
// name.
func describeToolOf(keys []chain.AckKey) llm.Tool {
	var subjects []any
	for _, k := range keys {
		if !slices.Contains(subjects, any(k.Subject)) {
			subjects = append(subjects, k.Subject)
		}
	}
	return llm.Tool{
		Name:        describeTool,
		Description: "Read the body of a script or guidance subject that a transition waits to have acknowledged; reading it acknowledges it in this run.",
		Schema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"subject": map[string]any{"type": "string", "enum": subjects, "description": "the subject to read"}},
			"required":             []any{"subject"},
			"additionalProperties": false,
		},
	}
}

// describeCalls answers the model's describe calls, by call id: each
// subject's body (every kind the subjects list under it), whose
// acknowledgment is recorded as decided by by.
func (f *flow) describeCalls(resp *llm.Response, keys []chain.AckKey, by string) map[string]llm.ToolResult {
	out := map[string]llm.ToolResult{}
	for _, call := range resp.ToolCalls {
		if call.Name != describeTool {
			continue
		}
		var a struct {
			Subject string `json:"subject"`
		}
		_ = json.Unmarshal([]byte(call.Arguments), &a)
		var bodies []response.Described
		for _, k := range keys {
			if k.Subject != a.Subject {
				continue
			}
			d, err := f.describe(k)
			if err != nil {
				out[call.ID] = llm.ToolResult{CallID: call.ID, Content: err.Error(), IsError: true}
				break
			}
			f.acknowledge(d, by)
			bodies = append(bodies, d)
		}
		switch {
		case out[call.ID].IsError:
		case len(bodies) == 0:
			out[call.ID] = llm.ToolResult{CallID: call.ID, IsError: true,
				Content: fmt.Sprintf("%q is not a subject to describe here%s", a.Subject, chain.DidYouMean(a.Subject, subjectNames(keys)))}
		default:
			text, _ := json.Marshal(bodies)
			if len(bodies) == 1 {
				text, _ = json.Marshal(bodies[0])
			}
			out[call.ID] = llm.ToolResult{CallID: call.ID, Content: string(text)}
		}
	}
	return out
}

// called reports whether the answer calls the tool.
func called(resp *llm.Response, tool string) bool {
	return slices.ContainsFunc(resp.ToolCalls, func(c llm.ToolCall) bool { return c.Name == tool })
}

func subjectNames(keys []chain.AckKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Subject
	}
	return out
}
