package interrupt

import (
	"context"
	"errors"
	"syscall"
)

// AfterStop is the context for work that must still be done once ctx is
// stopped (printing an interrupted run's result): ctx itself while it
// runs; once it is stopped, one that only a forced stop (the second
// signal) ends. release frees it.
func AfterStop(ctx context.Context) (after context.Context, release func()) {
	if ctx.Err() == nil {
		return ctx, func() {}
	}
	after, cancel := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		select {
		case <-Force(ctx):
			cancel()
		case <-after.Done():
		}
	}()
	return after, cancel
}

// PipeClosed reports whether err is a write to a pipe whose reader has
// gone (… | head -1): the reader had what it wanted, no failure.
func PipeClosed(err error) bool { return errors.Is(err, syscall.EPIPE) }
