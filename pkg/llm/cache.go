package llm

import (
	"context"
	"time"
)

// Cache keeps answers by key. pkg/cache's Store (on disk) and Mem satisfy
// it; a failed write costs a future call, nothing more.
type Cache interface {
	Get(key string, v any) bool
	Put(key string, v any, ttl time.Duration) error
}

// CacheOptions say which requests are cached and for how long.
type CacheOptions struct {
	// Key names a request's answer: everything that changes it, including
	// the checks an answer must pass to be kept (a stored answer passed
	// the checks its key names, so a hit is served as it is). "" leaves
	// the request uncached.
	Key func(Request) string
	TTL time.Duration
	// Read false never serves a stored answer but still stores fresh ones
	// (--no-cache).
	Read bool
}

// cachedAnswer is what an entry holds.
type cachedAnswer struct {
	Text  string `json:"text"`
	Model string `json:"model"`
}

// cached is the answer cache as a decorator: the key, the read, the write
// and the TTL in one place.
type cached struct {
	Provider
	store Cache
	opts  CacheOptions
}

var _ Provider = (*cached)(nil)

// Cached wraps p so that a complete answer (finish reason stop) that p
// returns without error is stored, and served for the same key later.
// Put a Checked provider inside it so that only answers that pass their
// checks are kept. A nil store returns p.
func Cached(p Provider, store Cache, o CacheOptions) Provider {
	if store == nil || o.Key == nil {
		return p
	}
	return &cached{Provider: p, store: store, opts: o}
}

// Complete serves a stored answer, or asks p and stores its answer.
func (c *cached) Complete(ctx context.Context, req Request) (*Response, error) {
	key := c.opts.Key(req)
	if key == "" {
		return c.Provider.Complete(ctx, req)
	}
	var hit cachedAnswer
	if c.opts.Read && c.store.Get(key, &hit) {
		return &Response{Text: hit.Text, FinishReason: FinishStop, Via: hit.Model, Cached: true}, nil
	}
	resp, err := c.Provider.Complete(ctx, req)
	if err == nil && resp.FinishReason == FinishStop {
		// only a complete answer, not one cut at max_tokens
		_ = c.store.Put(key, cachedAnswer{Text: resp.Text, Model: resp.Via}, c.opts.TTL)
	}
	return resp, err
}
