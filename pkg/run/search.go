package run

import (
	"context"
	"errors"

	"github.com/chainrun/chainrun/pkg/run/web"
)

// WithSearch sets the web search provider of web_search pre_tools (none:
// such a pre_tool fails, saying what to set).
func WithSearch(s web.Provider) Option { return func(l *Local) { l.search = s } }

// search asks the search provider for q (pkg/run/web): a provider the
// engine lacks, or cannot ask, fails the step for good.
func (x *Execution) search(ctx context.Context, q string) (string, error) {
	text, err := web.Search(ctx, x.Engine.client, x.Engine.search, q)
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
