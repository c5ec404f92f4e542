package dag

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSchedulerStress runs many random graphs with many workers (meant
// for -race): every node runs exactly once, never before its
// dependencies finished, never above the parallel cap; a Stop cancels
// what runs and starts nothing more.
func TestSchedulerStress(t *testing.T) {
	rounds := 200
	if testing.Short() {
		rounds = 20
	}
	for round := range rounds {
		r := rand.New(rand.NewPCG(uint64(round), 7))
		n := 20 + r.IntN(200)
		deps := make([][]int, n)
		for i := 1; i < n; i++ {
			for range r.IntN(4) {
				deps[i] = append(deps[i], r.IntN(i))
			}
		}
		nodes := make([]int, n)
		for i := range nodes {
			nodes[i] = i
		}
		g, err := New(nodes, func(k int) []int { return deps[k] })
		if err != nil {
			t.Fatal(err)
		}
		parallel := 1 + r.IntN(16)
		stopAt := -1
		if round%4 == 3 {
			stopAt = r.IntN(n)
		}
		var mu sync.Mutex
		done := make([]bool, n)
		runs := make([]int, n)
		var running, most atomic.Int64
		notStarted := g.Run(context.Background(), parallel, func(ctx context.Context, k int) Outcome {
			now := running.Add(1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			defer running.Add(-1)
			mu.Lock()
			runs[k]++
			for _, d := range deps[k] {
				if !done[d] {
					t.Errorf("round %d: node %d started before its dependency %d finished", round, k, d)
				}
			}
			mu.Unlock()
			if r := k % 3; r == 0 {
				// let other visits interleave
				for range 100 {
					_ = ctx.Err()
				}
			}
			mu.Lock()
			done[k] = true
			mu.Unlock()
			if k == stopAt {
				return Stop
			}
			return Continue
		})
		if most.Load() > int64(parallel) {
			t.Errorf("round %d: %d visits at once, cap %d", round, most.Load(), parallel)
		}
		skipped := map[int]bool{}
		for _, k := range notStarted {
			skipped[k] = true
		}
		for k := range n {
			switch {
			case runs[k] > 1:
				t.Fatalf("round %d: node %d ran %d times", round, k, runs[k])
			case runs[k] == 0 && !skipped[k]:
				t.Fatalf("round %d: node %d neither ran nor was reported not started", round, k)
			case runs[k] == 1 && skipped[k]:
				t.Fatalf("round %d: node %d ran and was reported not started", round, k)
			case stopAt < 0 && runs[k] == 0:
				t.Fatalf("round %d: node %d never ran", round, k)
			}
		}
	}
}
