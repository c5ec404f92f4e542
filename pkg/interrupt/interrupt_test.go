//go:build unix

package interrupt

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestFirstSignalCancelsSecondForces sends the process two signals: the
// first cancels the watched context and leaves force open, the second
// closes force.
func TestFirstSignalCancelsSecondForces(t *testing.T) {
	ctx, stop := Watch(context.Background(), syscall.SIGUSR1)
	defer stop()
	derived, cancel := context.WithCancel(ctx)
	defer cancel()
	force := Force(derived)
	if force == nil || Force(context.Background()) != nil {
		t.Fatal("a watched context (and one derived from it) has a force channel; no other has")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the first signal did not cancel the context")
	}
	select {
	case <-force:
		t.Fatal("the first signal forced")
	default:
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-force:
	case <-time.After(10 * time.Second):
		t.Fatal("the second signal did not force")
	}
}

// Work after a stop goes on until the stop is forced.
func TestAfterStop(t *testing.T) {
	ctx, stop, force := WithStop(context.Background())
	if after, release := AfterStop(ctx); after != ctx {
		t.Error("a running context is its own")
	} else {
		release()
	}
	stop()
	after, release := AfterStop(ctx)
	defer release()
	if after.Err() != nil {
		t.Fatal("work after a stop is stopped already")
	}
	force()
	select {
	case <-after.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("a forced stop does not end it")
	}
	if !PipeClosed(&os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}) || PipeClosed(os.ErrClosed) {
		t.Error("PipeClosed")
	}
}
