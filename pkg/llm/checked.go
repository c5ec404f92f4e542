package llm

import "context"

// RejectedError is an answer that came back but failed its caller's
// check (a guardrail, a missing keyword): Answer is kept so the model can
// be told what was wrong with it.
type RejectedError struct {
	Answer *Response
	Err    error
}

func (e *RejectedError) Error() string { return e.Err.Error() }
func (e *RejectedError) Unwrap() error { return e.Err }

type checked struct {
	Provider
	check func(*Response) error
}

var _ Provider = (*checked)(nil)

// Checked wraps p so that every answer p gives is checked once, by check;
// a failed check is a *RejectedError. Inside Cached, it keeps rejected
// answers out of the cache.
func Checked(p Provider, check func(*Response) error) Provider {
	if check == nil {
		return p
	}
	return &checked{Provider: p, check: check}
}

// Complete asks p and checks the answer.
func (c *checked) Complete(ctx context.Context, req Request) (*Response, error) {
	resp, err := c.Provider.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	if err := c.check(resp); err != nil {
		return resp, &RejectedError{Answer: resp, Err: err}
	}
	return resp, nil
}
