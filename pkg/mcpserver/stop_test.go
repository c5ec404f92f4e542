package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAStopEndsTheServerWhileACallWaitsOnARun: a stop (the signal that
// ends Serve's context) while start_run waits on a run that goes on
// longer than the call's wait stops the run — saved as interrupted —
// answers the call and ends Serve at once, for one run or several, over
// a client that stays connected; it does not wait out --wait.
func TestAStopEndsTheServerWhileACallWaitsOnARun(t *testing.T) {
	for _, runs := range []int{1, 3} {
		b := &startedBackend{memBackend: newMemBackend(chainsDir(t)), started: make(chan struct{})}
		s := New(b, Options{Wait: time.Hour})
		s.Reload()
		st, ct := mcp.NewInMemoryTransports()
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- s.Serve(ctx, st) }()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range runs {
			go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolStart, Arguments: map[string]any{"chain": "slow"}})
		}
		<-b.started
		stop()
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d runs: Serve still going 5s after the stop", runs)
		}
		done := make(chan struct{})
		go func() { s.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d runs: Close still waiting on the runs", runs)
		}
		cs.Close()
	}
}
