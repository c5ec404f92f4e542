//go:build unix

package interrupt

import (
	"context"
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
