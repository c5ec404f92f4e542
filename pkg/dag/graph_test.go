package dag

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func build(t testing.TB, edges map[string][]string, order ...string) *Graph[string] {
	t.Helper()
	g, err := New(order, func(k string) []string { return edges[k] })
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestNewErrors(t *testing.T) {
	_, err := New([]string{"a"}, func(string) []string { return []string{"zz"} })
	var me *MissingError[string]
	if !errors.As(err, &me) || me.Dep != "zz" {
		t.Fatalf("want MissingError, got %v", err)
	}
	edges := map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": nil}
	_, err = New([]string{"d", "a", "b", "c"}, func(k string) []string { return edges[k] })
	var ce *CycleError[string]
	if !errors.As(err, &ce) {
		t.Fatalf("want CycleError, got %v", err)
	}
	if got := strings.Join(ce.Path, " "); got != "a b c a" {
		t.Errorf("cycle path = %s", got)
	}
	if !strings.Contains(ce.Error(), "a → b → c → a") {
		t.Errorf("message = %s", ce.Error())
	}
}

func TestWavesAndDependsOn(t *testing.T) {
	edges := map[string][]string{"c": {"a", "b"}, "d": {"c"}, "e": {"a"}}
	g := build(t, edges, "a", "b", "c", "d", "e")
	got := fmt.Sprint(g.Waves())
	if got != "[[a b] [c e] [d]]" {
		t.Errorf("waves = %s", got)
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"d", "a", true}, {"d", "b", true}, {"e", "b", false}, {"a", "d", false}, {"c", "c", false}, {"e", "a", true}} {
		if got := g.DependsOn(tc.a, tc.b); got != tc.want {
			t.Errorf("DependsOn(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

func TestRunRespectsDependencies(t *testing.T) {
	edges := map[string][]string{"c": {"a", "b"}, "d": {"c"}, "e": {"a"}}
	g := build(t, edges, "a", "b", "c", "d", "e")
	var mu sync.Mutex
	done := map[string]bool{}
	skipped := g.Run(context.Background(), 3, func(_ context.Context, k string) Outcome {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range edges[k] {
			if !done[d] {
				t.Errorf("%s started before its dependency %s finished", k, d)
			}
		}
		done[k] = true
		return Continue
	})
	if len(skipped) != 0 || len(done) != 5 {
		t.Fatalf("skipped=%v done=%v", skipped, done)
	}
}

// TestRunHasNoWaveBarrier: b2 depends only on b1, so it must start while
// the slow a1 (same wave as b1) is still running.
func TestRunHasNoWaveBarrier(t *testing.T) {
	edges := map[string][]string{"a2": {"a1"}, "b2": {"b1"}}
	g := build(t, edges, "a1", "b1", "a2", "b2")
	release := make(chan struct{})
	b2started := make(chan struct{})
	go func() {
		select {
		case <-b2started:
		case <-time.After(5 * time.Second):
		}
		close(release)
	}()
	g.Run(context.Background(), 4, func(_ context.Context, k string) Outcome {
		switch k {
		case "a1":
			<-release // a1 finishes only once b2 has started
		case "b2":
			close(b2started)
		}
		return Continue
	})
	select {
	case <-b2started:
	default:
		t.Fatal("b2 never started")
	}
}

func TestRunParallelLimit(t *testing.T) {
	var nodes []string
	for i := range 20 {
		nodes = append(nodes, fmt.Sprint(i))
	}
	g := build(t, nil, nodes...)
	var now, peak atomic.Int32
	g.Run(context.Background(), 3, func(context.Context, string) Outcome {
		n := now.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond)
		now.Add(-1)
		return Continue
	})
	if peak.Load() > 3 {
		t.Fatalf("%d ran at once with a limit of 3", peak.Load())
	}
}

func TestRunStopCancelsAndSkips(t *testing.T) {
	edges := map[string][]string{"after": {"fail"}}
	g := build(t, edges, "fail", "slow", "after")
	var slowCancelled atomic.Bool
	skipped := g.Run(context.Background(), 4, func(ctx context.Context, k string) Outcome {
		switch k {
		case "fail":
			return Stop
		case "slow":
			select {
			case <-ctx.Done():
				slowCancelled.Store(true)
			case <-time.After(5 * time.Second):
			}
		}
		return Continue
	})
	if !slowCancelled.Load() {
		t.Error("a running sibling was not cancelled by Stop")
	}
	if !slices.Equal(skipped, []string{"after"}) {
		t.Errorf("skipped = %v", skipped)
	}
}

func TestRunDrainLetsRunningFinish(t *testing.T) {
	edges := map[string][]string{"later": {"exit"}}
	g := build(t, edges, "exit", "running", "later")
	var finished atomic.Bool
	started := make(chan struct{})
	skipped := g.Run(context.Background(), 4, func(ctx context.Context, k string) Outcome {
		switch k {
		case "exit":
			<-started
			return Drain
		case "running":
			close(started)
			time.Sleep(20 * time.Millisecond)
			if ctx.Err() == nil {
				finished.Store(true)
			}
		}
		return Continue
	})
	if !finished.Load() {
		t.Error("Drain cancelled a running node")
	}
	if !slices.Equal(skipped, []string{"later"}) {
		t.Errorf("skipped = %v", skipped)
	}
}

func TestRunCancelledContextStartsNothing(t *testing.T) {
	g := build(t, nil, "a", "b")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	skipped := g.Run(ctx, 2, func(context.Context, string) Outcome {
		t.Error("a node started on a cancelled context")
		return Continue
	})
	if len(skipped) != 2 {
		t.Errorf("skipped = %v", skipped)
	}
}

func TestRunPrefersCriticalPath(t *testing.T) {
	// With one slot, the head of the long branch goes first.
	edges := map[string][]string{"long2": {"long1"}, "long3": {"long2"}}
	g := build(t, edges, "short", "long1", "long2", "long3")
	var order []string
	g.Run(context.Background(), 1, func(_ context.Context, k string) Outcome {
		order = append(order, k)
		return Continue
	})
	if order[0] != "long1" {
		t.Errorf("order = %v", order)
	}
}

// TestRunAbsurdParallel holds that a limit far above the node count (a
// user's --max-parallel 10000000000) runs the graph, allocating by nodes.
func TestRunAbsurdParallel(t *testing.T) {
	g := build(t, map[string][]string{"b": {"a"}}, "a", "b", "c")
	var ran atomic.Int32
	left := g.Run(context.Background(), 1<<62, func(context.Context, string) Outcome {
		ran.Add(1)
		return Continue
	})
	if ran.Load() != 3 || len(left) != 0 {
		t.Fatalf("%d ran, %v never started", ran.Load(), left)
	}
}

// TestRunNotifyTellsOfWaitingNodes holds that a node ready while every
// slot is taken is told of once, before it starts, and that with slots
// to spare no node waits.
func TestRunNotifyTellsOfWaitingNodes(t *testing.T) {
	g := build(t, map[string][]string{"d": {"a"}}, "a", "b", "c", "d")
	for _, tt := range []struct {
		parallel int
		waiting  int
	}{{1, 3}, {4, 0}} {
		var mu sync.Mutex
		var log []string
		note := func(s string) {
			mu.Lock()
			log = append(log, s)
			mu.Unlock()
		}
		g.RunNotify(context.Background(), tt.parallel, func(_ context.Context, k string) Outcome {
			note("run " + k)
			return Continue
		}, func(k string) { note("wait " + k) })
		told := map[string]int{}
		for i, s := range log {
			if k, ok := strings.CutPrefix(s, "wait "); ok {
				told[k]++
				if slices.Index(log, "run "+k) < i {
					t.Errorf("parallel %d: %s told of after it started: %v", tt.parallel, k, log)
				}
			}
		}
		if len(told) != tt.waiting {
			t.Errorf("parallel %d: told of %v waiting, want %d: %v", tt.parallel, told, tt.waiting, log)
		}
		for k, n := range told {
			if n != 1 {
				t.Errorf("parallel %d: %s told of %d times", tt.parallel, k, n)
			}
		}
	}
}

// TestRunHoldKeepsDependentsOnly: a held node's dependents (and theirs)
// never start; every other node runs.
func TestRunHoldKeepsDependentsOnly(t *testing.T) {
	edges := map[string][]string{"after": {"gate"}, "last": {"after"}, "next": {"other"}}
	g := build(t, edges, "gate", "other", "after", "last", "next")
	var ran sync.Map
	skipped := g.Run(context.Background(), 1, func(_ context.Context, k string) Outcome {
		ran.Store(k, true)
		if k == "gate" {
			return Hold
		}
		return Continue
	})
	if !slices.Equal(skipped, []string{"after", "last"}) {
		t.Errorf("skipped = %v", skipped)
	}
	if _, ok := ran.Load("next"); !ok {
		t.Error("a node that does not depend on the held one did not run")
	}
}
