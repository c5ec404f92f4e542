package run

import (
	"context"
	"errors"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/run/confine"
)

// This file is what a step's pre_tools (pkg/run/pretool) see of the run
// beyond what every kind sees: where their results are kept, how long a
// retry waits, and the run's web search.

// PreToolCache is where a pre_tool that keeps its result (cache_ttl_minutes)
// keeps it: the engine's cache, else one in memory for the engine's life,
// shared by every run of the engine; nil when the engine's cache is not
// read (--no-cache). The engine owns both, so a pre_tool outside this
// package reaches them only here.
func (a *Attempt) PreToolCache() cache.Cache {
	l := a.x.Engine
	if l.cache != nil {
		if !l.cacheReads {
			return nil
		}
		return l.cache
	}
	return l.preCache
}

// PreToolDelay is the first wait before a pre_tool's retry, an engine
// setting (tests set none), which a pre_tool outside this package cannot
// read otherwise.
func (a *Attempt) PreToolDelay() time.Duration { return a.x.Engine.preToolDelay }

// HoldsSecret says whether text holds any of the run's secrets, however
// short: a value that does is never kept in a cache. Mask hides only
// secrets long enough to mask, so it cannot tell.
func (a *Attempt) HoldsSecret(text string) bool { return a.x.Secrets.Holds(text) }

// Search asks the run's search provider for q (search.go), as an agent's
// WebSearch does: a web_search pre_tool's query.
func (a *Attempt) Search(ctx context.Context, q string) (string, error) { return a.x.search(ctx, q) }

// IsPermanent says whether err is a failure another attempt cannot mend
// (Permanent), for code outside this package that retries on its own,
// as pre_tools do.
func IsPermanent(err error) bool {
	var pe *permanentError
	return errors.As(err, &pe)
}

// JailRel is path p (absolute, or relative to base, under jail) relative
// to jail, or the error of a path that leaves it by its shape: the
// confinement of pkg/run/confine, for a pre_tool that reads a path itself.
func JailRel(jail, base, p string) (string, error) {
	rel, err := confine.Rel(jail, base, p)
	return rel, Refused(err)
}

// JailError words an error of an os.Root call on p inside jail, as
// pkg/run/confine does for its own calls: a link that leads out is the
// built-in tools' refusal; either fails the step for good.
func JailError(err error, p, jail string) error {
	return Refused(confine.RootError(err, p, jail))
}
