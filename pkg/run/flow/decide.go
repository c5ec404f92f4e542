package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/retry"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// decisionTool is the tool a model decides with: its one argument is an
// enum of the links, so it cannot name a transition that is not offered.
const decisionTool = "choose_transition"

// decisionPolicy bounds how often a model is asked again, at once, after
// an answer that names no offered transition.
var decisionPolicy = retry.Policy{Attempts: 3}

// decide resolves a decision point: its timeout, the agent model, or the
// person at the terminal. wait are the transitions that wait only for
// acknowledgments, which a model may give (describe) and a person at the
// terminal may not: they are offered to the model, and listed when the
// run pauses. A nil transition means the run pauses (or failed: f.status
// says which).
func (f *flow) decide(ctx context.Context, s *chain.State, viable []*chain.Transition, wait []candidate) (*chain.Transition, string) {
	// at the depth limit nothing more is taken on the run's own: the
	// timeout and the model wait for the next call; a person may decide
	auto := f.depth < f.w.MaxChainDepth
	if !auto {
		f.Warn(fmt.Sprintf("maxChainDepth %d reached in this call: decision point %s is left to the next run or resume", f.w.MaxChainDepth, s.Name))
	}
	if auto && s.Timeout > 0 && !f.Engine.Now().Before(f.arrived.Add(s.Timeout)) {
		for _, t := range viable {
			if t.Name == s.OnTimeout {
				return t, "timeout"
			}
		}
		f.fail(fmt.Sprintf("state %s: the timeout of %s passed, but on_timeout %s is not viable (%s)", s.Name, s.Timeout, s.OnTimeout, f.whyNot(s, s.Transition(s.OnTimeout))), linksOf(viable))
		return nil, ""
	}
	var forAgent, forHuman bool
	for _, t := range viable {
		forAgent = forAgent || t.Actor == chain.ActorAgent
		forHuman = forHuman || t.Actor == chain.ActorHuman
	}
	for _, c := range wait {
		forAgent = forAgent || c.t.Actor == chain.ActorAgent
	}
	if auto && f.Req.Decide != nil {
		if t, done := f.scripted(ctx, s, viable); t != nil || done {
			return t, "script"
		}
	}
	links := append(linksOf(viable), waitingLinks(wait)...)
	if model := f.agentModel(); auto && forAgent && model != "" {
		offered := slices.DeleteFunc(slices.Clone(viable), func(t *chain.Transition) bool { return t.Actor == chain.ActorHuman })
		wait = slices.DeleteFunc(slices.Clone(wait), func(c candidate) bool { return c.t.Actor == chain.ActorHuman })
		t, label, err := f.askModel(ctx, s, offered, wait, model)
		if err != nil && ctx.Err() != nil {
			f.stop(record.Interrupted, "interrupted", links)
			return nil, ""
		}
		var u *undecided
		switch {
		case errors.As(err, &u):
			// the model could not decide: a person does, as at any
			// decision point nobody here can decide
			f.Warn(fmt.Sprintf("state %s: %v", s.Name, u))
		case err != nil:
			f.fail(fmt.Sprintf("state %s: the agent decision failed: %v", s.Name, err), links)
			return nil, ""
		default:
			return t, "model:" + label
		}
	}
	if forHuman && f.Req.Human != nil {
		if t, done := f.askDecider(ctx, f.Req.Human, s, viable, "human"); t != nil || done {
			return t, "human"
		}
	}
	f.status = record.Paused
	f.links = append(links, f.blockedLinks(s, links)...)
	f.Emit(event.Event{Type: event.Decision, State: s.Name, Status: record.Paused, Detail: waitingFor(f.links)})
	return nil, ""
}

// askDecider asks decide to choose one of the viable transitions. done
// with no transition means the run stopped or failed; neither means the
// decider did not choose and the run pauses.
func (f *flow) askDecider(ctx context.Context, decide response.Decider, s *chain.State, viable []*chain.Transition, who string) (t *chain.Transition, done bool) {
	c, ok, err := decide(ctx, f.decision(s, viable))
	switch {
	case err != nil && ctx.Err() != nil:
		f.stop(record.Interrupted, "interrupted", linksOf(viable))
		return nil, true
	case err != nil:
		f.fail(fmt.Sprintf("state %s: asking for a decision: %v", s.Name, err), linksOf(viable))
		return nil, true
	case !ok:
		return nil, false
	}
	for _, t := range viable {
		if t.Name != c.Transition {
			continue
		}
		// the decider asked for them; a choice without them is refused
		// before the transition runs
		args, err := f.decisionArgs(t, c.Args)
		if err != nil {
			f.fail(fmt.Sprintf("state %s: the %s decision: %s", s.Name, who, plainArgs(err)), linksOf(viable))
			return nil, true
		}
		f.useArgs(args)
		return t, true
	}
	f.fail(fmt.Sprintf("state %s: %q is not one of the offered transitions (%s decided)", s.Name, c.Transition, who), linksOf(viable))
	return nil, true
}

// scripted takes the script's choice, with its arguments. done with no
// transition means the run failed (a choice that is not offered, or
// arguments its transition refuses).
func (f *flow) scripted(ctx context.Context, s *chain.State, viable []*chain.Transition) (*chain.Transition, bool) {
	c, ok := f.Req.Decide(ctx, f.decision(s, viable))
	if !ok {
		return nil, false
	}
	for _, t := range viable {
		if t.Name != c.Transition {
			continue
		}
		args, err := f.decisionArgs(t, c.Args)
		if err != nil {
			f.fail(fmt.Sprintf("state %s: the scripted decision: %s", s.Name, plainArgs(err)), linksOf(viable))
			return nil, true
		}
		f.useArgs(args)
		return t, true
	}
	f.fail(fmt.Sprintf("state %s: %q is not one of the offered transitions (scripted)", s.Name, c.Transition), linksOf(viable))
	return nil, true
}

// agentModel is the model that decides agent decision points, if any.
func (f *flow) agentModel() string {
	if f.Engine.Remote != nil {
		// a model's decision is work for a worker, not for the driver:
		// the run pauses for resume --take
		return ""
	}
	if f.Req.AgentModel != "" {
		return f.Req.AgentModel
	}
	return f.w.AgentModel
}

// decision describes a decision point for whoever makes it, with the
// checks of a choice's arguments a person can be asked again by.
func (f *flow) decision(s *chain.State, viable []*chain.Transition) response.Decision {
	// whoever decides (a model, a person, an MCP client) is shown what a
	// result shows: secrets masked
	shown := f.context
	if f.Secrets != nil {
		shown, _ = f.MaskValue(f.context).(map[string]any)
	}
	offered := func(name string) (*chain.Transition, error) {
		for _, t := range viable {
			if t.Name == name {
				return t, nil
			}
		}
		return nil, fmt.Errorf("%q is not one of the offered transitions", name)
	}
	return response.Decision{RunID: f.RunID, Workflow: f.Chain.Name, State: s.Name, Goal: f.render(s.GoalTemplate()), Guidance: f.render(s.GuidanceTemplate()),
		Links: linksOf(viable), Context: shown, Skills: f.w.Fragments(skillSubjects(f.w, s, viable)),
		Check: func(c response.Choice) error {
			t, err := offered(c.Transition)
			if err != nil {
				return err
			}
			if _, err := f.decisionArgs(t, c.Args); err != nil {
				return errors.New(plainArgs(err))
			}
			return nil
		},
		CheckArg: func(transition, name string, v any) error {
			t, err := offered(transition)
			if err != nil {
				return err
			}
			return checkArg(t, name, v)
		}}
}

// checkDecider resolves the agent model before anything runs, when the
// workflow has agent decisions to make: a missing key is exit 2 then, not
// a failure half-way.
func checkDecider(l *run.Local, c *chain.Chain, req run.Request) error {
	model := req.AgentModel
	if model == "" {
		model = c.Workflow.AgentModel
	}
	if model == "" {
		return nil
	}
	for _, s := range c.Workflow.States {
		for _, t := range s.Transitions {
			if t.Actor != chain.ActorAgent {
				continue
			}
			if l.Models == nil {
				return &response.PreflightError{Kind: response.BadModel, File: c.File, Pos: c.Pos, Step: t.Name, Msg: "agent decisions need a model, and no model providers are configured"}
			}
			if _, err := l.Models.Target(model); err != nil {
				return &response.PreflightError{Kind: response.BadModel, File: c.File, Pos: t.At("actor"), Step: t.Name, Msg: fmt.Sprintf("the agent model %s: %v", model, err)}
			}
			return nil
		}
	}
	return nil
}

// decisionPrompt is what a model deciding a decision point reads.
func decisionPrompt(d response.Decision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Workflow %s is at state %s.\n", d.Workflow, d.State)
	if d.Goal != "" {
		fmt.Fprintf(&b, "\nGoal: %s\n", d.Goal)
	}
	if d.Guidance != "" {
		fmt.Fprintf(&b, "\nGuidance: %s\n", d.Guidance)
	}
	for _, fr := range d.Skills {
		fmt.Fprintf(&b, "\nSkill %s (%s):\n%s\n", fr.Subject, fr.Verb, strings.TrimSpace(fr.Body))
	}
	if ctxJSON, err := json.MarshalIndent(d.Context, "", "  "); err == nil && len(d.Context) > 0 {
		fmt.Fprintf(&b, "\nContext:\n%s\n", ctxJSON)
	}
	b.WriteString("\nTransitions you may take:\n")
	for _, l := range d.Links {
		fmt.Fprintf(&b, "- %s: %s", l.Transition, l.Title)
		if len(l.Acknowledge) > 0 {
			fmt.Fprintf(&b, " (it waits until you call %s for %s)", describeTool, strings.Join(l.Acknowledge, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// decisionDeadline is when a paused decision point's on_timeout applies,
// zero when it has none.
func decisionDeadline(s *chain.State, arrived time.Time) time.Time {
	if s == nil || s.Timeout <= 0 {
		return time.Time{}
	}
	return arrived.Add(s.Timeout)
}
