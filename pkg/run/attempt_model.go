package run

import (
	"context"
	"errors"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// The model services of Attempt: what a kind that asks a model (agent.go,
// toolloop.go) needs of the run. The step's models, their retry allowance
// and the feedback of earlier attempts span every attempt of the step, so
// they are kept by the engine and reached here, not made by the kind.

// Models is the step's models as one provider: its model and
// fallback_models, each drawing on the run's budget and retried under
// the step's policy, resolved once per step (a fallback without its key
// left out with a warning) and built on the first request sent, since a
// cached answer needs none. The error is permanent.
func (a *Attempt) Models() (llm.Provider, error) {
	if err := a.x.stepTargets(a.s, a.t); err != nil {
		return nil, err
	}
	return lazyModels{x: a.x, s: a.s, t: a.t}, nil
}

// TurnModels is the step's models for turn n of a tool loop: each turn is
// a question of its own, made once per step so that a re-asked turn
// draws on the first's retry allowance; the llm.call events name the turn.
func (a *Attempt) TurnModels(n int) llm.Provider {
	a.t.turn = n
	return a.x.modelsFor(a.s, a.t, n, "")
}

// Prompt is the step's prompt rendered with its context_strategy applied
// (a summary is a model call counted for the step), and the note a kind
// added (WithNote).
func (a *Attempt) Prompt(ctx context.Context) (string, error) {
	prompt, err := a.x.renderPrompt(ctx, a.s, a.sc, a.t)
	if err != nil {
		return "", err
	}
	return prompt + a.sc.note, nil
}

// Feedback is what earlier attempts of the step tell the model after its
// prompt: each answer that broke the step's guardrails and why.
func (a *Attempt) Feedback() []llm.Message { return a.t.history }

// Stream sends the answer to req as it comes, as llm.delta events, when
// the run streams.
func (a *Attempt) Stream(req *llm.Request) { a.x.stream(a.s, req) }

// Cache is where the step's answers are cached, and under what key (nil
// when the step does not cache): the engine owns the cache directory and
// knows which requests hold a secret, which are never cached.
func (a *Attempt) Cache() (llm.Cache, llm.CacheOptions) { return a.x.answerCache(a.s, a.t.targets) }

// ModelUsed is the model that answered the step's last request, as the
// llm.call events name it ("" none yet).
func (a *Attempt) ModelUsed() string { return a.t.model }

// CountCached counts an answer served from the cache in the step's model
// use.
func (a *Attempt) CountCached() { a.t.usage.Cached++ }

// ToolSpecs are the tools offered to the step's model: its tools (built-in
// or the chain's), then its completion tool.
func (a *Attempt) ToolSpecs() []llm.Tool { return ask.Tools(a.x.Chain, a.s) }

// Fetch is a page as text, fetched as the run's WebFetch tool fetches it.
func (a *Attempt) Fetch(ctx context.Context, url string) (string, error) {
	return a.x.fetchText(ctx, url)
}

// Granted reports whether a tool outside the step's tools was granted
// for the run (--grant): its calls run without asking.
func (a *Attempt) Granted(tool string) bool { return a.x.Req.Grants[tool] }

// ToolAsker is whoever is asked to allow a tool call outside the step's
// tools (nil: no one is at a terminal).
func (a *Attempt) ToolAsker() ask.ToolAsker { return a.x.Req.Ask }

// RunTool runs a chain-defined tool's executor with args as {args},
// confined to dir (its caller's directory), under the executor's retry
// policy, and returns its output's text.
func (a *Attempt) RunTool(ctx context.Context, executor *chain.Step, dir string, args interp.Value) (string, error) {
	out, _, err := a.x.attempts(ctx, executor, Scope{Vars: a.x.Vars, jail: dir}.with("args", args))
	return out.Value.Text, err
}

// Model is the model a step asks first, as its dry-run line shows it (""
// none).
func (p PlanView) Model(s *chain.Step) string { return p.v.x.Engine.modelOf(s) }

// AdmitModel refuses, before the run starts, a model step whose model (or
// answer cache) cannot be used here: the Admit of every kind that asks a
// model.
func AdmitModel(l *Local, c *chain.Chain, s *chain.Step) error {
	if s.Agent().Cache != nil && s.Agent().Cache.Enabled && l.cache == nil {
		return &response.PreflightError{Kind: response.Unsupported, File: c.File, Pos: s.At("cache"), Step: s.ID, Msg: "cache without a cache directory"}
	}
	_, _, err := l.targets(c, s)
	return err
}

// stepTargets resolves the step's models once per step, warning of the
// fallbacks left out for want of a key.
func (x *Execution) stepTargets(s *chain.Step, t *tries) error {
	if t.targets != nil {
		return nil
	}
	targets, skipped, err := x.Engine.targets(x.Chain, s)
	if err != nil {
		return &permanentError{err}
	}
	for _, e := range skipped {
		var pe *response.PreflightError
		if errors.As(e, &pe) {
			x.Warn("step " + s.ID + ": " + pe.Msg)
		}
	}
	t.targets = targets
	return nil
}

// lazyModels is the step's models, built on the first request sent: a
// cached answer needs none.
type lazyModels struct {
	x *Execution
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

// stream sends the answer's text as it comes, when the run streams.
func (x *Execution) stream(s *chain.Step, req *llm.Request) {
	if x.Engine.streaming {
		req.OnDelta = func(text string) {
			x.Emit(event.Event{Type: event.LLMDelta, Step: s.ID, Line: text})
		}
	}
}
