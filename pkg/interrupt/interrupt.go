package interrupt

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// forceKey holds a stoppable context's force channel.
type forceKey struct{}

// WithStop returns a context that stop cancels and whose force channel
// (Force) force closes: what Watch does on signals, by hand (for tests,
// and for a caller with signals of its own). Both are safe to call more
// than once.
func WithStop(parent context.Context) (ctx context.Context, stop, force func()) {
	ch := make(chan struct{})
	ctx, cancel := context.WithCancel(context.WithValue(parent, forceKey{}, (<-chan struct{})(ch)))
	var once sync.Once
	return ctx, cancel, func() { once.Do(func() { close(ch) }) }
}

// Watch returns a context that is cancelled at the first of sigs, and
// whose force channel (Force) closes at the second. After the second,
// sigs act as they would without chainrun. stop releases the signals.
func Watch(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop func()) {
	ctx, cancel, force := WithStop(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		for _, act := range []func(){cancel, force} {
			select {
			case <-ch:
				act()
			case <-done:
				return
			}
		}
		signal.Stop(ch)
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
}

// Force is the channel that closes when a stop is forced (a second stop
// signal) on a context from WithStop or Watch, or one derived from it;
// nil, which never closes, for any other context.
func Force(ctx context.Context) <-chan struct{} {
	force, _ := ctx.Value(forceKey{}).(<-chan struct{})
	return force
}

// IgnorePipe keeps SIGPIPE from killing the process until stop is called:
// a write to a closed pipe on stdout or stderr fails (EPIPE) instead, for
// the caller to notice; SIGPIPE from other pipes (a child's input) is
// only a failed write too.
func IgnorePipe() (stop func()) {
	ignored := make(chan os.Signal, 1)
	signal.Notify(ignored, syscall.SIGPIPE)
	go func() {
		for range ignored {
		}
	}()
	return func() { signal.Stop(ignored) }
}
