package dag

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// A loop's items reuse the workers they find free, start no more than the
// pool's size, and all run before Wait returns.
func TestWorkersPoolReuseAndBound(t *testing.T) {
	for _, c := range []struct {
		name          string
		size, jobs    int
		atOnce        int // jobs held running together before any returns
		most, atLeast int // workers the pool may start
	}{
		{name: "items one at a time reuse the workers", size: 4, jobs: 200, atOnce: 1, most: 4, atLeast: 1},
		{name: "items held together start one worker each", size: 3, jobs: 90, atOnce: 3, most: 3, atLeast: 3},
		{name: "never more workers than the size", size: 2, jobs: 60, atOnce: 2, most: 2, atLeast: 2},
		{name: "a size below one is one", size: 0, jobs: 10, atOnce: 1, most: 1, atLeast: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := NewWorkers(c.size)
			var ran atomic.Int64
			for i := 0; i < c.jobs; i += c.atOnce {
				var started, release sync.WaitGroup
				release.Add(1)
				for range c.atOnce {
					started.Add(1)
					w.Do(func() {
						started.Done()
						release.Wait()
						ran.Add(1)
					})
				}
				started.Wait() // all c.atOnce run together
				release.Done()
				for ran.Load() < int64(i+c.atOnce) {
					runtime.Gosched() // the batch finishes before the next starts
				}
			}
			w.Wait()
			if got := ran.Load(); got != int64(c.jobs) {
				t.Fatalf("%d of %d jobs ran", got, c.jobs)
			}
			if w.started > c.most || w.started < c.atLeast {
				t.Fatalf("started %d workers, want %d to %d", w.started, c.atLeast, c.most)
			}
		})
	}
}
