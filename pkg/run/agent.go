package run

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

func init() {
	register(chain.KindAgent, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, t *tries) (outcome, error) {
			return x.agent(ctx, s, sc, t)
		},
		plan: planAgent,
		// an agent task's result is the keyword it chose, else its finish
		// reason
		result: func(f *flow, s *chain.Step, sr *StepResult) (string, bool) {
			if unfinished(sr.Status) {
				return "", false
			}
			if len(s.ConditionKey) > 0 {
				v, _ := f.st.get(s.OutputVar)
				return v.Text, true
			}
			return sr.FinishReason, true
		},
		admit: admitModel,
	})
}

// planAgent shows a model step's call: its model, tools and prompt.
func planAgent(v planView, s *chain.Step, p *PlannedStep) {
	cs := s.C()
	p.Model = v.x.l.modelOf(s)
	if p.Model == "" {
		p.Model = "(no model: set model:, --model, CHAINRUN_MODEL or default_model)"
	}
	p.FallbackModels = s.FallbackModels
	if s.UsesTools() {
		p.Tools, p.MaxTurns = s.Tools, s.Turns()
		if cp := s.Completion; cp != nil {
			p.Completion = cp.Tool + "(" + strings.Join(slices.Sorted(maps.Keys(propertiesOf(cp.Schema))), ", ") + ")"
		}
	}
	p.Action = v.keep(cs.Prompt)
	if sys := v.keep(cs.System); sys != "" {
		p.System = sys
	}
}

// admitModel refuses a model step whose model (or answer cache) cannot
// be used here.
func admitModel(l *Local, c *chain.Chain, s *chain.Step) error {
	if s.Cache != nil && s.Cache.Enabled && l.cache == nil {
		return &PreflightError{Kind: Unsupported, File: c.File, Pos: s.At("cache"), Step: s.ID, Msg: "cache without a cache directory"}
	}
	_, _, err := l.targets(c, s)
	return err
}

// propertiesOf is the properties of an object schema, none when it has
// none.
func propertiesOf(schema map[string]any) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	return props
}

// agent makes the step's model call: the prompt through the answer cache,
// the check of the answer (keyword, guardrails), the tool loop when the
// step has tools, and the step's models with their retries and
// fallbacks. t carries what earlier attempts of the step left: the
// feedback on answers that broke a guardrail, and the models' retry
// allowance.
func (x *execution) agent(ctx context.Context, s *chain.Step, sc scope, t *tries) (outcome, error) {
	var out outcome
	if err := x.stepTargets(s, t); err != nil {
		return out, err
	}
	prompt, err := x.renderPrompt(ctx, s, sc, t)
	if err != nil {
		return out, err
	}
	prompt += sc.note
	if len(s.ConditionKey) > 0 {
		prompt += "\n\nAnswer with exactly one of these words and nothing else: " + strings.Join(s.ConditionKey, ", ") + "."
	}
	system, err := x.render(s.C().System, sc)
	if err != nil {
		return out, err
	}
	req := llm.Request{
		System:      system,
		Messages:    append([]llm.Message{{Role: llm.User, Content: prompt}}, t.history...),
		Temperature: s.Temperature,
		MaxTokens:   s.MaxTokens,
		CutIsAnswer: s.CutIsResult(),
	}
	x.stream(s, &req)
	var models llm.Provider = lazyModels{x: x, s: s, t: t}
	if s.UsesTools() {
		req.Tools = x.toolSpecs(s)
		models = &toolLoop{x: x, s: s, sc: sc, t: t, out: &out}
	}
	store, opts := x.answerCache(s, t.targets)
	ask := llm.Cached(llm.Checked(models, func(r *llm.Response) error { return acceptAnswer(s, r) }), store, opts)
	resp, err := ask.Complete(ctx, req)
	out.model = t.model
	var rejected *llm.RejectedError
	switch {
	case errors.As(err, &rejected):
		// the answer came but broke a check: the value is kept for the
		// feedback of the next attempt
		resp, err = rejected.Answer, rejected.Err
	case err != nil:
		// transient failures were already retried, and fell back
		return out, &permanentError{err}
	}
	out.finish = resp.FinishReason
	if resp.Cached {
		out.cached, out.model = true, resp.Via
		t.usage.Cached++
	}
	v, verr := answerValue(s, resp.Text)
	out.value = v
	if err == nil {
		err = verr
	}
	return out, err
}

// stepTargets resolves the step's models once per step, warning of the
// fallbacks left out for want of a key.
func (x *execution) stepTargets(s *chain.Step, t *tries) error {
	if t.targets != nil {
		return nil
	}
	targets, skipped, err := x.l.targets(x.c, s)
	if err != nil {
		return &permanentError{err}
	}
	for _, e := range skipped {
		var pe *PreflightError
		if errors.As(e, &pe) {
			x.warn("step " + s.ID + ": " + pe.Msg)
		}
	}
	t.targets = targets
	return nil
}

// lazyModels is the step's models, built on the first request sent: a
// cached answer needs none.
type lazyModels struct {
	x *execution
	s *chain.Step
	t *tries
}

func (m lazyModels) Name() string { return m.t.targets[0].Provider.Name() }

func (m lazyModels) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	if m.t.models == nil {
		m.t.models = m.x.answerModels(m.s, m.t)
	}
	return m.t.models.Complete(ctx, req)
}
