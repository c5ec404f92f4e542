package run

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Models turns a model name into a ready provider target; *llm.Registry
// is the implementation, tests use fakes.
type Models interface {
	Target(model string) (llm.Target, error)
}

// modelOf is the model a step uses: its own, else the run's default
// (--model, CHAINRUN_MODEL, config default_model, in that order, resolved
// by the caller).
func (l *Local) modelOf(s *chain.Step) string {
	if s.Agent().Model != "" {
		return s.Agent().Model
	}
	return l.defaultModel
}

// targets resolves a step's model and its fallback_models. A fallback
// whose only problem is a missing API key is left out and reported in
// skipped (one key is enough to run a step); every other problem is err.
func (l *Local) targets(c *chain.Chain, s *chain.Step) (out []llm.Target, skipped []error, err error) {
	fail := func(field, format string, args ...any) error {
		return &response.PreflightError{Kind: response.BadModel, File: c.File, Pos: s.At(field), Step: s.ID, Msg: fmt.Sprintf(format, args...)}
	}
	model := l.modelOf(s)
	if model == "" {
		return nil, nil, fail("prompt", "no model: set model: on the step, --model, CHAINRUN_MODEL or default_model in config")
	}
	if l.Models == nil {
		return nil, nil, fail("prompt", "no model providers are configured")
	}
	for i, m := range append([]string{model}, s.Agent().FallbackModels...) {
		t, terr := l.Models.Target(m)
		if terr == nil {
			if problem, field := ask.Refused(s, t.Provider.Name(), t); problem != "" && err == nil {
				err = &response.PreflightError{Kind: response.BadParams, File: c.File, Pos: s.At(field), Step: s.ID, Msg: problem}
			}
			out = append(out, t)
			continue
		}
		if d, ok := l.Models.(describer); ok {
			// what the API refuses is found without its key too
			if pname, t, derr := d.Describe(m); derr == nil {
				if problem, field := ask.Refused(s, pname, t); problem != "" {
					skipped = append(skipped, &response.PreflightError{Kind: response.BadParams, File: c.File, Pos: s.At(field), Step: s.ID, Msg: problem})
				}
			}
		}
		field := "model"
		if i > 0 {
			field = "fallback_models"
		} else if s.Agent().Model == "" {
			field = "prompt"
		}
		var ce *llm.ConfigError
		if i > 0 && errors.As(terr, &ce) && ce.MissingKey {
			skipped = append(skipped, fail(field, "fallback %v; it is skipped", terr))
			continue
		}
		if err == nil {
			err = fail(field, "%v", terr)
		}
	}
	if err != nil {
		return nil, skipped, err
	}
	return out, skipped, nil
}

// firstModel is the model an agent step asks first, as provider/model
// (as llm.call events name it), for the display of the running step; ""
// for other kinds.
func (x *Execution) firstModel(s *chain.Step) string {
	if s.Kind.Deterministic() {
		return ""
	}
	if targets, _, err := x.Engine.targets(x.Chain, s); err == nil && len(targets) > 0 {
		return targets[0].Label()
	}
	return x.Engine.modelOf(s)
}

// CheckModels reports, for every agent step of c, every model that cannot
// be used here, fallbacks without a key included (validate shows these
// as warnings: a chain is valid on a machine without keys).
func (l *Local) CheckModels(c *chain.Chain) []error {
	var out []error
	for _, s := range slices.Concat(c.Steps, c.HandlerSteps()) {
		if !s.Kind.Deterministic() {
			_, skipped, err := l.targets(c, s)
			if err != nil {
				out = append(out, err)
			}
			out = append(out, skipped...)
		}
	}
	return out
}

// tries is what the attempts of one step share: the guardrail feedback
// the model is told on a retry, the step's models (whose retry allowance
// spans every attempt), and the model use they add up.
type tries struct {
	history []llm.Message
	targets []llm.Target
	models  llm.Provider
	// turns are a tool loop's models by turn, and side the models of side
	// questions (a summary) by name: a re-ask of the same turn or
	// question draws on the allowance of the first.
	turns map[int]llm.Provider
	side  map[string]llm.Provider
	// summaries are the context summaries made, by dependency and text.
	summaries map[string]string
	// usage and model are kept by the models' observer; turn is the tool
	// loop's current model call.
	usage record.Usage
	model string
	turn  int
	// broken counts the failed attempts of each model (by label): answers
	// that broke the step's checks, requests cut by its timeout; spent
	// holds why a model is not asked again, and
	// answering is every retrying target asked for the step's answer,
	// which spending a model stops.
	broken    map[string]int
	spent     map[string]error
	answering []*llm.Retrying
}

// answerModels is the step's models for its answer (its one request, or
// a tool loop's turn), a model spent by its broken answers left out.
func (x *Execution) answerModels(s *chain.Step, t *tries) llm.Provider {
	p, rs := x.stepModels(s, t.targets, x.observer(s, t, ""))
	t.answering = append(t.answering, rs...)
	for _, r := range rs {
		if cause, ok := t.spent[r.Label()]; ok {
			r.Spend(cause)
		}
	}
	return p
}

// rejected counts a failed attempt of model label: an answer that broke
// the step's checks, a request cut by the step's timeout (cause). A model
// that has failed the step's retry max of them is spent: the next
// attempt goes to the next fallback, in reference 004's order — the
// primary, its retries, then each fallback model with its own.
func (t *tries) rejected(s *chain.Step, label string, cause error) {
	if t.broken == nil {
		t.broken, t.spent = map[string]int{}, map[string]error{}
	}
	t.broken[label]++
	if t.broken[label] < s.Attempts() {
		return
	}
	t.spent[label] = cause
	for _, r := range t.answering {
		if r.Label() == label {
			r.Spend(cause)
		}
	}
}

// stepAttempts is how many times a step's body may run: its retry max,
// and for a model step that many for each of its models, as each
// fallback gets the re-asks the model before it had once that model is
// spent.
func (x *Execution) stepAttempts(s *chain.Step, t *tries) int {
	n := s.Attempts()
	if t == nil || x.stepTargets(s, t) != nil {
		return n
	}
	return n * len(t.targets)
}

// stepModels is a step's targets as one provider: each target drawing on
// the run's budget and retried under the step's policy, then its
// fallbacks in order. observe sees every request.
func (x *Execution) stepModels(s *chain.Step, targets []llm.Target, observe func(llm.Attempt)) (llm.Provider, []*llm.Retrying) {
	p := ask.Policy(s)
	ps := make([]llm.Provider, len(targets))
	rs := make([]*llm.Retrying, len(targets))
	for i, t := range targets {
		t.Provider = llm.Budgeted(t.Provider, x.Budget)
		rs[i] = llm.WithRetry(t, p, observe)
		ps[i] = rs[i]
	}
	var mu sync.Mutex
	told := map[int]bool{}
	return llm.FallbackNotify(func(next int, cause error) {
		// once per move: a later attempt finds the allowance of the
		// model before spent, and moves on again at once
		mu.Lock()
		defer mu.Unlock()
		if told[next] {
			return
		}
		told[next] = true
		x.Emit(event.Event{Type: event.LLMFallback, Step: s.ID, Model: targets[next].Label(),
			Detail: targets[next-1].Label(), Error: cause.Error()})
	}, ps...), rs
}

// modelsFor is the step's models for turn (a tool loop's) or side question
// name, made once per step execution so that every attempt shares their
// allowance.
func (x *Execution) modelsFor(s *chain.Step, t *tries, turn int, name string) llm.Provider {
	if name != "" {
		if t.side == nil {
			t.side = map[string]llm.Provider{}
		}
		if m, ok := t.side[name]; ok {
			return m
		}
		m, _ := x.stepModels(s, t.targets, x.observer(s, t, name))
		t.side[name] = m
		return m
	}
	if t.turns == nil {
		t.turns = map[int]llm.Provider{}
	}
	if m, ok := t.turns[turn]; ok {
		return m
	}
	m := x.answerModels(s, t)
	t.turns[turn] = m
	return m
}

// observer adds each request's usage to t and reports it as an llm.call
// event. detail, when set, marks a side request (a summary) that does not
// name the step's model.
func (x *Execution) observer(s *chain.Step, t *tries, detail string) func(llm.Attempt) {
	return func(a llm.Attempt) {
		t.usage.InputTokens += a.Usage.InputTokens
		t.usage.OutputTokens += a.Usage.OutputTokens
		if a.Sent() {
			t.usage.LLMCalls++
		}
		e := event.Event{Type: event.LLMCall, Step: s.ID, Attempt: a.Number, Model: a.Target.Label(), Status: event.OK, Detail: detail,
			DurationMS: a.Duration.Milliseconds(), InputTokens: a.Usage.InputTokens, OutputTokens: a.Usage.OutputTokens}
		if detail == "" {
			t.model, e.Turn = a.Target.Label(), t.turn
		}
		x.DescribeRequest(&e, a, &t.usage)
		if a.Err != nil {
			e.Status, e.Error = event.Failed, a.Err.Error()
			if a.Wait > 0 {
				e.Status, e.Detail = event.Retrying, "retry in "+a.Wait.Round(time.Millisecond).String()
			}
		}
		x.Emit(e)
	}
}

// describer tells a model's API without its key (llm.Registry.Describe).
type describer interface {
	Describe(model string) (provider string, t llm.Target, err error)
}
