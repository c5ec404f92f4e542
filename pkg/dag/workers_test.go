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
