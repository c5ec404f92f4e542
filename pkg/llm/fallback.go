package llm

import "context"

// fallback tries providers in order, moving on only after a transient
// failure or a model declining the question (another provider's policy
// may differ): a permanent error (a bad request, a bad key) would fail
// the same on every model.
type fallback struct {
	providers []Provider
	// onSwitch, when set, is told before each move to the next provider.
	onSwitch func(next int, cause error)
}

var _ Provider = (*fallback)(nil)

// Fallback returns a provider that asks each of ps in turn. Each is
// usually a *Retrying target, which knows its own model.
func Fallback(ps ...Provider) Provider {
	return FallbackNotify(nil, ps...)
}

// FallbackNotify is Fallback, calling onSwitch (when not nil) before it
// asks ps[next] because the provider before it failed with cause, so
// that the move can be announced before the next answer comes.
func FallbackNotify(onSwitch func(next int, cause error), ps ...Provider) Provider {
	if len(ps) == 1 {
		return ps[0]
	}
	return &fallback{providers: ps, onSwitch: onSwitch}
}

// Name is the first provider's name.
func (f *fallback) Name() string { return f.providers[0].Name() }

// Complete returns the first answer, or the last failure.
func (f *fallback) Complete(ctx context.Context, req Request) (*Response, error) {
	var last error
	for i, p := range f.providers {
		if i > 0 && f.onSwitch != nil {
			f.onSwitch(i, last)
		}
		resp, err := p.Complete(ctx, req)
		if err == nil {
			return resp, nil
		}
		last = err
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !IsTransient(err) && DeclinedReason(err) == "" {
			return nil, err
		}
	}
	return nil, last
}
