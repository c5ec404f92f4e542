package run

import (
	"context"
	"errors"

	"github.com/chainrun/chainrun/pkg/run/web"
)

// Search is the web search provider web_search pre_tools and an agent's
// WebSearch ask: any HTTP
// endpoint that answers a GET with results (SearXNG's format=json, Brave,
// Tavily, Google's custom search, a company proxy).
type Search struct {
	// URL is the endpoint. {query} in it is replaced by the query,
	// percent-encoded; without it the query is sent as the q parameter.
	URL string
	// Key, when set, is sent as Authorization: Bearer KEY, or bare in
	// KeyHeader when that is set (X-Subscription-Token for Brave).
	Key, KeyHeader string
}

// WithSearch sets the web search provider of web_search pre_tools (none:
// such a pre_tool fails, saying what to set).
func WithSearch(s Search) Option { return func(l *Local) { l.search = s } }

// search asks the search provider for q (pkg/run/web): a provider the
// engine lacks, or cannot ask, fails the step for good.
func (x *Execution) search(ctx context.Context, q string) (string, error) {
	sp := x.Engine.search
	text, err := web.Search(ctx, x.Engine.client, sp.URL, sp.Key, sp.KeyHeader, q)
	var setup *web.SetupError
	if errors.As(err, &setup) {
		return "", &permanentError{err}
	}
	return text, err
}

// fetchText is an agent's WebFetch, through the engine's HTTP client.
func (x *Execution) fetchText(ctx context.Context, u string) (string, error) {
	return web.Fetch(ctx, x.Engine.client, u)
}
