package dag

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkersAreReusedAndEnd: visits run in goroutines kept from one
// visit to the next (a chain of 200 nodes does not start 200 of them),
// never more at once than parallel allows, and none is left once Run
// returns.
func TestWorkersAreReusedAndEnd(t *testing.T) {
	edges := map[string][]string{}
	var order []string
	for i := range 200 {
		id := fmt.Sprint("n", i)
		order = append(order, id)
		if i > 0 {
			edges[id] = []string{fmt.Sprint("n", i-1)}
		}
		// and a wide layer beside the line
		w := fmt.Sprint("w", i)
		order = append(order, w)
	}
	g := build(t, edges, order...)
	before := runtime.NumGoroutine()
	var running, most atomic.Int32
	var mu sync.Mutex
	ids := map[string]bool{} // the goroutines visits ran in
	g.Run(context.Background(), 3, func(ctx context.Context, k string) Outcome {
		raise(&most, running.Add(1))
		buf := make([]byte, 64)
		id, _, _ := strings.Cut(string(buf[:runtime.Stack(buf, false)]), " [")
		mu.Lock()
		ids[id] = true
		mu.Unlock()
		time.Sleep(100 * time.Microsecond)
		running.Add(-1)
		return Continue
	})
	if most.Load() > 3 {
		t.Errorf("%d visits at once, parallel 3", most.Load())
	}
	if len(ids) > 10 {
		t.Errorf("400 visits ran in %d goroutines, parallel 3: not reused", len(ids))
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left after Run, %d before", n, before)
	}
}

// raise sets m to n if n is more.
func raise(m *atomic.Int32, n int32) {
	for old := m.Load(); n > old && !m.CompareAndSwap(old, n); old = m.Load() {
	}
}

// goroutineID is the number runtime.Stack names the calling goroutine by.
func goroutineID() string {
	buf := make([]byte, 64)
	id, _, _ := strings.Cut(string(buf[:runtime.Stack(buf, false)]), " [")
	return id
}

// TestLoneVisitRunsInRunsGoroutine: a node that is the only one under
// way (every node of a line) is visited in the goroutine that called
// Run, with no hand-off to a worker and back.
func TestLoneVisitRunsInRunsGoroutine(t *testing.T) {
	edges := map[string][]string{}
	var order []string
	for i := range 50 {
		order = append(order, fmt.Sprint("n", i))
		if i > 0 {
			edges[order[i]] = []string{order[i-1]}
		}
	}
	self := goroutineID()
	var elsewhere []string
	build(t, edges, order...).Run(context.Background(), 4, func(ctx context.Context, k string) Outcome {
		if goroutineID() != self {
			elsewhere = append(elsewhere, k)
		}
		return Continue
	})
	if len(elsewhere) > 0 {
		t.Errorf("visited in another goroutine: %v", elsewhere)
	}
}

// TestSlowVisitDoesNotHoldOthers: while a slow node runs, a node that
// becomes ready beside it starts (it is not left waiting for the slow one
// because that one was the last to start): a waits until c has run.
func TestSlowVisitDoesNotHoldOthers(t *testing.T) {
	edges := map[string][]string{"c": {"b"}}
	cRan := make(chan struct{})
	failed := make(chan string, 1)
	build(t, edges, "b", "a", "c").Run(context.Background(), 2, func(ctx context.Context, k string) Outcome {
		switch k {
		case "a":
			select {
			case <-cRan:
			case <-time.After(20 * time.Second):
				failed <- "c never started while a ran"
			}
		case "c":
			close(cRan)
		}
		return Continue
	})
	select {
	case msg := <-failed:
		t.Fatal(msg)
	default:
	}
}
