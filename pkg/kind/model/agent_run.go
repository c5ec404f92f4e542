package model

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// An agent step asks its model: the prompt through the answer cache, the
// check of the answer (keyword, guardrails), the tool loop when the step
// has tools (toolloop.go), and the step's models with their retries and
// fallbacks. What earlier attempts of the step left (the feedback on
// answers that broke a guardrail, the models' retry allowance) comes
// through Attempt. Its answer is read by answer.go.
func init() {
	run.Register(chain.KindAgent, run.Runner{
		Run:  agent,
		Plan: planAgent,
		// an agent task's result is the keyword it chose, else its finish
		// reason
		Result: func(read func(string) (interp.Value, bool), s *chain.Step, sr *record.StepResult) (string, bool) {
			if record.Unfinished(sr.Status) {
				return "", false
			}
			if len(s.Agent().ConditionKey) > 0 {
				v, _ := read(s.OutputVar)
				return v.Text, true
			}
			return sr.FinishReason, true
		},
		Admit: run.AdmitModel,
	})
}

// planAgent shows a model step's call: its model, tools and prompt.
func planAgent(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
	cs := s.C()
	p.Model = v.Model(s)
	if p.Model == "" {
		p.Model = "(no model: set model:, --model, CHAINRUN_MODEL or default_model)"
	}
	p.FallbackModels = s.Agent().FallbackModels
	if s.UsesTools() {
		p.Tools, p.MaxTurns = s.Agent().Tools, s.Turns()
		if cp := s.Agent().Completion; cp != nil {
			p.Completion = cp.Tool + "(" + strings.Join(slices.Sorted(maps.Keys(propertiesOf(cp.Schema))), ", ") + ")"
		}
	}
	p.Action = v.Keep(cs.Prompt)
	if sys := v.Keep(cs.System); sys != "" {
		p.System = sys
	}
}

// propertiesOf is the properties of an object schema, none when it has
// none.
func propertiesOf(schema map[string]any) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	return props
}

// agent makes the step's model call once.
func agent(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	var out run.Outcome
	s := a.Step()
	models, err := a.Models()
	if err != nil {
		return out, err
	}
	prompt, err := a.Prompt(ctx)
	if err != nil {
		return out, err
	}
	if len(s.Agent().ConditionKey) > 0 {
		prompt += "\n\nAnswer with exactly one of these words and nothing else: " + strings.Join(s.Agent().ConditionKey, ", ") + "."
	}
	system, err := a.Render(s.C().System)
	if err != nil {
		return out, err
	}
	req := llm.Request{
		System:      system,
		Messages:    append([]llm.Message{{Role: llm.User, Content: prompt}}, a.Feedback()...),
		Temperature: s.Agent().Temperature,
		MaxTokens:   s.Agent().MaxTokens,
		CutIsAnswer: s.CutIsResult(),
	}
	withParams(s, &req)
	a.Stream(&req)
	if s.UsesTools() {
		req.Tools = a.ToolSpecs()
		models = &toolLoop{a: a, out: &out}
	}
	answers, opts := a.Cache()
	ask := llm.Cached(llm.Checked(models, func(r *llm.Response) error { return acceptAnswer(s, r) }), answers, opts)
	resp, err := ask.Complete(ctx, req)
	out.Model = a.ModelUsed()
	var rejected *llm.RejectedError
	switch {
	case errors.As(err, &rejected):
		// the answer came but broke a check: the value is kept for the
		// feedback of the next attempt
		resp, err = rejected.Answer, rejected.Err
	case err != nil:
		// transient failures were already retried, and fell back
		return out, run.Permanent(err)
	}
	out.Finish = resp.FinishReason
	if resp.Cached {
		out.Cached, out.Model = true, resp.Via
		a.CountCached()
	}
	v, verr := answerValue(s, resp.Text)
	out.Value = v
	if err == nil {
		err = verr
	}
	return out, err
}
