package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run/ask"
)

// answerCache is how a step's answers are cached: nil options when the
// step does not cache. The key names the question: the step, the fully
// resolved prompt and system prompt, the models, every parameter that
// changes the answer and every check the answer passed to be stored. A
// re-ask carries the broken answers and the feedback on them after the
// prompt; they are not part of the question, so the answer that passes
// after a re-ask is stored under the question's key. A request that
// holds a secret input is never cached (the cache is plain files on
// disk).
func (x *Execution) answerCache(s *chain.Step, targets []llm.Target) (llm.Cache, llm.CacheOptions) {
	if s.Agent().Cache == nil || !s.Agent().Cache.Enabled || x.Engine.cache == nil {
		return nil, llm.CacheOptions{}
	}
	models := ask.Labels(targets)
	key := func(req llm.Request) string {
		if x.holdsSecret(req) {
			return ""
		}
		return ask.CacheKey(s, req, models)
	}
	return x.Engine.cache, llm.CacheOptions{Key: key, TTL: ask.CacheTTL(s), Read: x.Engine.cacheReads}
}

// holdsSecret reports whether a model request carries a secret input in
// any form: such a request is never cached, nor its answer.
func (x *Execution) holdsSecret(req llm.Request) bool {
	if x.Secrets.Holds(req.System) {
		return true
	}
	for _, m := range req.Messages {
		if x.Secrets.Holds(m.Content) {
			return true
		}
	}
	return false
}
