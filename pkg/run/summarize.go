package run

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
)

// renderPrompt renders the prompt with context_strategy applied to the
// outputs of the dependencies it names: full (as is), truncate:N (cut to N
// characters) or summarize (a model call of its own, cached, whose usage
// counts for the step).
func (x *Execution) renderPrompt(ctx context.Context, s *chain.Step, sc Scope, t *tries) (string, error) {
	strategies := map[string]string{}
	for dep, strategy := range s.Agent().ContextStrategy {
		name := dep
		if d := x.Chain.Step(dep); d != nil && d.OutputVar != "" {
			name = d.OutputVar
		}
		strategies[name] = strategy
	}
	var failure error
	resolve := func(r chain.Ref) (string, bool, error) {
		v, ok, err := sc.Resolve(r)
		strategy := strategies[r.Name]
		switch {
		case err != nil || !ok:
		case strings.HasPrefix(strategy, "truncate:"):
			n, _ := strconv.Atoi(strings.TrimPrefix(strategy, "truncate:"))
			if s.Reading().CutsMarked {
				v = CutMarked(v, n)
			} else if len([]rune(v)) > n {
				v = string([]rune(v)[:n]) + "…"
			}
		case strategy == "summarize" && v != "":
			summary, serr := x.summarize(ctx, s, t, r.Name, v)
			switch {
			case serr != nil && s.Reading().SummaryFailurePassesValue && ctx.Err() == nil:
				// OCC's applyContextStrategy keeps the value when its
				// summary fails, and says so
				x.Warn(fmt.Sprintf("step %q: %v: the value is passed in full, as OCC passes it (chainrun's own format fails the step)", s.ID, serr))
			case serr != nil:
				failure = serr
				return "", false, serr
			default:
				v = summary
			}
		}
		return v, ok, err
	}
	text, err := s.C().Prompt.Render(resolve, x.Engine.lenient)
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

// summaryTTL is how long a summary is kept: the same text always gives
// the same context.
const summaryTTL = 7 * 24 * time.Hour

// summarize condenses a dependency's output with the step's own models
// (a question of its own, with its own retry allowance). Summaries are
// cached (when a cache is configured) whatever the step's own cache
// setting, unless the text holds a secret input.
func (x *Execution) summarize(ctx context.Context, s *chain.Step, t *tries, name, text string) (string, error) {
	if sum, ok := t.summaries[name+"\x00"+text]; ok {
		// a re-ask of the step: the context is the same
		return sum, nil
	}
	models := x.modelsFor(s, t, 0, "summarize "+name)
	var store llm.Cache
	if x.Engine.cache != nil {
		store = x.Engine.cache
	}
	key := cache.Key([]any{"summarize", ask.Labels(t.targets), s.Agent().MaxTokens, text})
	if x.Secrets.Holds(text) {
		// a secret is never written to the cache
		key = ""
	}
	ask := llm.Cached(models, store, llm.CacheOptions{Key: func(llm.Request) string { return key }, TTL: summaryTTL, Read: x.Engine.cacheReads})
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Content: summaryPrompt + text}}, MaxTokens: s.Agent().MaxTokens}
	resp, err := ask.Complete(ctx, req)
	if err != nil {
		return "", &permanentError{fmt.Errorf("context_strategy summarize of %s: %w", name, err)}
	}
	if resp.Cached {
		t.usage.Cached++
	}
	if t.summaries == nil {
		t.summaries = map[string]string{}
	}
	t.summaries[name+"\x00"+text] = resp.Text
	return resp.Text, nil
}
