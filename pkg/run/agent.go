package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/llm"
)

// Models turns a model name into a ready provider target; *llm.Registry
// is the implementation, tests use fakes.
type Models interface {
	Target(model string) (llm.Target, error)
}

// ModelError is an agent step whose model cannot be used on this machine:
// no model named anywhere, an unknown provider, a missing key. Found before
// any step runs.
type ModelError struct {
	File string
	Pos  chain.Pos
	Step string
	Msg  string
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("%s:%s: step %q: %s; nothing was run", e.File, e.Pos, e.Step, e.Msg)
}

// modelOf is the model a step uses: its own, else the run's default
// (--model, CHAINRUN_MODEL, config default_model, in that order, resolved
// by the caller).
func (l *Local) modelOf(s *chain.Step) string {
	if s.Model != "" {
		return s.Model
	}
	return l.defaultModel
}

// targets resolves a step's model and its fallback_models.
func (l *Local) targets(c *chain.Chain, s *chain.Step) ([]llm.Target, error) {
	fail := func(field, format string, args ...any) error {
		return &ModelError{File: c.File, Pos: s.At(field), Step: s.ID, Msg: fmt.Sprintf(format, args...)}
	}
	model := l.modelOf(s)
	if model == "" {
		return nil, fail("prompt", "no model: set model: on the step, --model, CHAINRUN_MODEL or default_model in config")
	}
	if l.models == nil {
		return nil, fail("prompt", "no model providers are configured")
	}
	var out []llm.Target
	for i, m := range append([]string{model}, s.FallbackModels...) {
		t, err := l.models.Target(m)
		if err != nil {
			field := "model"
			if i > 0 {
				field = "fallback_models"
			} else if s.Model == "" {
				field = "prompt"
			}
			return nil, fail(field, "%v", err)
		}
		out = append(out, t)
	}
	return out, nil
}

// CheckModels reports, for every agent step of c, a model that cannot be
// used here (validate shows these as warnings: a chain is valid on a
// machine without keys).
func (l *Local) CheckModels(c *chain.Chain) []error {
	var out []error
	for _, s := range c.Steps {
		if s.Kind == chain.KindAgent {
			if _, err := l.targets(c, s); err != nil {
				out = append(out, err)
			}
		}
	}
	return out
}

// policy is the step's retry of transient provider failures: its retry
// block, else two more attempts.
func policy(s *chain.Step) llm.Policy {
	if s.Retry == nil {
		return llm.DefaultPolicy
	}
	p := llm.Policy{Attempts: s.Retry.Max, Delay: time.Duration(s.Retry.DelayMS) * time.Millisecond, Backoff: s.Retry.Backoff, MaxWait: time.Minute}
	if p.Delay == 0 {
		p.Delay = llm.DefaultPolicy.Delay
	}
	return p
}

// agent makes the step's model call. history holds earlier answers that
// broke a guardrail and what was wrong with them, so a retry tells the
// model rather than asking the same question again.
func (x *execution) agent(ctx context.Context, s *chain.Step, sc scope, history []llm.Message) (outcome, error) {
	targets, err := x.l.targets(x.c, s)
	if err != nil {
		return outcome{}, &permanentError{err}
	}
	for i := range targets {
		targets[i].Provider = x.budget.provider(targets[i].Provider)
	}
	var out outcome
	prompt, err := x.renderPrompt(ctx, s, sc, targets, &out)
	if err != nil {
		return out, err
	}
	if len(s.ConditionKey) > 0 {
		prompt += "\n\nAnswer with exactly one of these words and nothing else: " + strings.Join(s.ConditionKey, ", ") + "."
	}
	system, err := x.render(s.C().System, sc)
	if err != nil {
		return out, err
	}
	req := llm.Request{
		System:      system,
		Messages:    append([]llm.Message{{Role: llm.User, Content: prompt}}, history...),
		Temperature: s.Temperature,
		MaxTokens:   s.MaxTokens,
	}
	if s.UsesTools() {
		req.Tools = x.toolSpecs(s)
	}
	if key := x.cacheKey(s, req, targets, len(history)); key != "" {
		var hit cached
		// a stored answer that breaks the step's guardrails as they are now
		// is a miss: it is asked again and replaced
		if x.l.cacheReads && x.l.cache.Get(key, &hit) && len(guard.Check(s, hit.Text)) == 0 {
			out.value, out.model, out.cached = textValue(hit.Text), hit.Model, true
			out.usage.Cached++
			if s.OutputSchema == "json" {
				if v, ok := parseJSONAnswer(hit.Text); ok {
					out.value = v
				}
			}
			return out, keyword(s, &out)
		}
		out.cacheKey = key
	}
	if x.l.streaming {
		req.OnDelta = func(text string) {
			x.emit(event.Event{Type: event.LLMDelta, Step: s.ID, Line: text})
		}
	}
	observe := func(a llm.Attempt) {
		out.usage.InputTokens += a.Usage.InputTokens
		out.usage.OutputTokens += a.Usage.OutputTokens
		e := event.Event{Type: event.LLMCall, Step: s.ID, Attempt: a.Number, Model: a.Target.Label(), Status: "ok",
			DurationMS: a.Duration.Milliseconds(), InputTokens: a.Usage.InputTokens, OutputTokens: a.Usage.OutputTokens, Turn: out.turn}
		if a.Err != nil {
			e.Status, e.Error = "failed", a.Err.Error()
			if a.Wait > 0 {
				e.Status, e.Detail = "retrying", "retry in "+a.Wait.Round(time.Millisecond).String()
			}
		}
		x.emit(e)
	}
	if s.UsesTools() {
		if err := x.toolLoop(ctx, s, sc, req, targets, &out, observe); err != nil {
			return out, err
		}
		return out, keyword(s, &out)
	}
	resp, target, sent, err := llm.Call(ctx, targets, req, policy(s), observe)
	out.usage.LLMCalls += sent
	out.model = target.Label()
	if err != nil {
		// transient failures were already retried, and fell back
		return out, &permanentError{err}
	}
	out.finish = resp.FinishReason
	out.answer = resp.Text
	out.value = textValue(resp.Text)
	if s.OutputSchema == "json" {
		if v, ok := parseJSONAnswer(resp.Text); ok {
			out.value = v
		}
	}
	return out, keyword(s, &out)
}

// keyword makes the output of a condition_key step the keyword the model
// chose (reference 003). An answer that holds none is a failed attempt,
// retried like a guardrail violation.
func keyword(s *chain.Step, out *outcome) error {
	if len(s.ConditionKey) == 0 {
		return nil
	}
	answer := strings.Trim(strings.TrimSpace(out.value.Text), ".!\"'`*")
	for _, k := range s.ConditionKey {
		if strings.EqualFold(answer, k) {
			out.value = textValue(k)
			return nil
		}
	}
	// a model that explains itself: take the one keyword it names
	var named []string
	for _, k := range s.ConditionKey {
		if containsWord(answer, k) {
			named = append(named, k)
		}
	}
	if len(named) == 1 {
		out.value = textValue(named[0])
		return nil
	}
	out.cacheKey = ""
	return fmt.Errorf("the model answered %q, not one of the keywords %s", clip(out.value.Text, 60), strings.Join(s.ConditionKey, ", "))
}

// containsWord reports whether w occurs in text as a whole word, ignoring
// case.
func containsWord(text, w string) bool {
	text, w = strings.ToLower(text), strings.ToLower(w)
	isWord := func(r byte) bool {
		return r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isWord(text[start-1])) && (end == len(text) || !isWord(text[end])) {
			return true
		}
		i = start + 1
	}
}

// cached is a stored answer.
type cached struct {
	Text  string `json:"text"`
	Model string `json:"model"`
}

// cacheKey names the stored answer of a request: the step, the fully
// resolved prompt and system prompt, the models and every parameter that
// changes the answer. Only first attempts are cached (a retry carries the
// guardrail feedback). "" when the step does not cache.
func (x *execution) cacheKey(s *chain.Step, req llm.Request, targets []llm.Target, retries int) string {
	if s.Cache == nil || !s.Cache.Enabled || x.l.cache == nil || retries > 0 {
		return ""
	}
	models := make([]string, len(targets))
	for i, t := range targets {
		models[i] = t.Label()
	}
	if len(req.Tools) > 0 {
		// the tools offered (and the completion schema) shape the answer
		return cacheKeyOf(s.ID, req.System, req.Messages[0].Content, models, req.Temperature, req.MaxTokens, s.OutputSchema, req.Tools, s.Completion)
	}
	return cacheKeyOf(s.ID, req.System, req.Messages[0].Content, models, req.Temperature, req.MaxTokens, s.OutputSchema)
}

func cacheKeyOf(parts ...any) string { return cache.Key(parts) }

// cacheTTL is the step's ttl_minutes, a day when it sets none.
func cacheTTL(s *chain.Step) time.Duration {
	if s.Cache != nil && s.Cache.TTLMinutes > 0 {
		return time.Duration(s.Cache.TTLMinutes) * time.Minute
	}
	return 24 * time.Hour
}

// renderPrompt renders the prompt with context_strategy applied to the
// outputs of the dependencies it names: full (as is), truncate:N (cut to N
// characters) or summarize (a model call of its own, cached, whose usage
// counts for the step).
func (x *execution) renderPrompt(ctx context.Context, s *chain.Step, sc scope, targets []llm.Target, out *outcome) (string, error) {
	strategies := map[string]string{}
	for dep, strategy := range s.ContextStrategy {
		name := dep
		if d := x.c.Step(dep); d != nil && d.OutputVar != "" {
			name = d.OutputVar
		}
		strategies[name] = strategy
	}
	var failure error
	resolve := func(r chain.Ref) (string, bool, error) {
		v, ok, err := sc.resolve(r)
		strategy := strategies[r.Name]
		switch {
		case err != nil || !ok:
		case strings.HasPrefix(strategy, "truncate:"):
			n, _ := strconv.Atoi(strings.TrimPrefix(strategy, "truncate:"))
			if len([]rune(v)) > n {
				v = string([]rune(v)[:n]) + "…"
			}
		case strategy == "summarize" && v != "":
			summary, serr := x.summarize(ctx, s, targets, r.Name, v, out)
			if serr != nil {
				failure = serr
				return "", false, serr
			}
			v = summary
		}
		return v, ok, err
	}
	text, err := s.C().Prompt.Render(resolve, x.l.lenient)
	if failure != nil {
		return "", failure
	}
	if err != nil {
		return "", &permanentError{err}
	}
	return text, nil
}

// summaryPrompt asks for a summary that keeps what a later prompt needs.
const summaryPrompt = `Summarise the following text for use as context in another prompt. Keep every fact, number, name and decision a reader would need; drop repetition and filler. Answer with the summary only.

`

// summarize condenses a dependency's output with the step's own models.
// Summaries are cached (when a cache is configured) whatever the step's
// own cache setting: the same text always gives the same context.
func (x *execution) summarize(ctx context.Context, s *chain.Step, targets []llm.Target, name, text string, out *outcome) (string, error) {
	models := make([]string, len(targets))
	for i, t := range targets {
		models[i] = t.Label()
	}
	key := ""
	if x.l.cache != nil {
		key = cacheKeyOf("summarize", models, s.MaxTokens, text)
		var hit cached
		if x.l.cacheReads && x.l.cache.Get(key, &hit) {
			out.usage.Cached++
			return hit.Text, nil
		}
	}
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Content: summaryPrompt + text}}, MaxTokens: s.MaxTokens}
	resp, _, sent, err := llm.Call(ctx, targets, req, policy(s), func(a llm.Attempt) {
		out.usage.InputTokens += a.Usage.InputTokens
		out.usage.OutputTokens += a.Usage.OutputTokens
		e := event.Event{Type: event.LLMCall, Step: s.ID, Attempt: a.Number, Model: a.Target.Label(), Status: "ok",
			Detail: "summarize " + name, DurationMS: a.Duration.Milliseconds(), InputTokens: a.Usage.InputTokens, OutputTokens: a.Usage.OutputTokens}
		if a.Err != nil {
			e.Status, e.Error = "failed", a.Err.Error()
		}
		x.emit(e)
	})
	out.usage.LLMCalls += sent
	if err != nil {
		return "", &permanentError{fmt.Errorf("context_strategy summarize of %s: %w", name, err)}
	}
	if key != "" {
		_ = x.l.cache.Put(key, cached{Text: resp.Text}, 7*24*time.Hour)
	}
	return resp.Text, nil
}

// parseJSONAnswer reads an answer that should be JSON, allowing the
// ```json fences models like to add.
func parseJSONAnswer(text string) (Value, bool) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t, "```json")
		t = strings.TrimPrefix(t, "```")
		t = strings.TrimSuffix(strings.TrimSpace(t), "```")
		t = strings.TrimSpace(t)
	}
	var d any
	if json.Unmarshal([]byte(t), &d) != nil {
		return Value{}, false
	}
	return Value{Text: t, Data: d}, true
}

// feedback is what a retry after broken guardrails tells the model.
func feedback(answer string, err *guard.ViolationError) []llm.Message {
	var b strings.Builder
	b.WriteString("Your answer broke these rules:\n")
	for _, v := range err.Violations {
		b.WriteString("- " + v.Message + "\n")
	}
	b.WriteString("Answer again, following every rule.")
	return []llm.Message{{Role: llm.Assistant, Content: answer}, {Role: llm.User, Content: b.String()}}
}
