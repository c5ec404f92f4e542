package dag

import (
	"container/heap"
	"context"
)

// Outcome tells the scheduler what a finished node means for the rest.
type Outcome int

const (
	// Continue releases the node's dependents.
	Continue Outcome = iota
	// Stop cancels the nodes still running and starts no more (a failure).
	Stop
	// Drain starts no more nodes but lets running ones finish (an early
	// exit).
	Drain
	// Hold keeps the node's dependents from starting and goes on with
	// the rest (a node waiting for a decision): they are among the nodes
	// Run reports it never started.
	Hold
)

// Visit runs one node. ctx is cancelled when another node stops the run or
// the caller's context ends.
type Visit[K comparable] func(ctx context.Context, k K) Outcome

// Run visits every node once, each as soon as all its dependencies have
// finished, with at most parallel visits at a time (parallel < 1 means
// one; more than the graph's nodes means all of them, so any int is
// safe). There is no wave barrier: a ready node never waits for an
// unrelated one. Among ready nodes the one heading the longest remaining
// path starts first, which keeps a limited pool on the critical path.
// Run returns the nodes it never started, in declaration order.
func (g *Graph[K]) Run(ctx context.Context, parallel int, visit Visit[K]) []K {
	return g.RunNotify(ctx, parallel, visit, nil)
}

// RunNotify is Run, telling wait (when not nil) of each node that is
// ready but must wait for a free slot, once, before it starts: a display
// can show it waiting rather than not at all. wait is called from Run's
// own goroutine, never at once with another wait.
func (g *Graph[K]) RunNotify(ctx context.Context, parallel int, visit Visit[K], wait func(K)) []K {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &goroutines{ctx: ctx, cancel: cancel, done: make(chan finished, max(min(parallel, len(g.nodes)), 1)), jobs: make(chan job)}
	defer close(r.jobs)
	return g.RunOn(ctx, parallel, visit, wait, r)
}

// Runner is how RunOn runs visits at once. The default is goroutines; a
// durable engine, whose workflow code must replay the same way every
// time, supplies its own coroutines.
type Runner interface {
	// Start begins the visit of node number i, to run alongside the
	// others; its outcome is reported by Next.
	Start(i int, visit func(ctx context.Context) Outcome)
	// Next waits for a started visit to end and returns its node number
	// and outcome.
	Next() (int, Outcome)
	// Cancel tells the visits still running to stop (a Stop outcome).
	Cancel()
}

// finished is a visit that ended.
type finished struct {
	node    int
	outcome Outcome
}

// goroutines is the default Runner. Its goroutines are workers kept for
// the next visit: a goroutine a visit would be created, and grow its stack
// by copying, for every node (a few percent of a chain of short commands).
// A visit that is the only one under way runs in the scheduler's own
// goroutine, in Next: nothing else can end before it, and handing it to a
// worker and its outcome back would wake a thread each way (on a small VM
// about 20 us a node of a chain, a futex wake of another CPU each).
type goroutines struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan finished
	// jobs hands a visit to an idle worker; closed when the run is over,
	// which ends them.
	jobs chan job
	// pending is the visit last started, not yet handed to a worker
	// (when pended); running counts the visits started and not yet
	// reported by Next.
	pending job
	pended  bool
	running int
}

// job is a visit to make.
type job struct {
	node  int
	visit func(ctx context.Context) Outcome
}

func (r *goroutines) Start(i int, visit func(ctx context.Context) Outcome) {
	r.running++
	if r.pended {
		r.hand(r.pending) // another comes: this one runs alongside
	}
	r.pending, r.pended = job{i, visit}, true
}

// hand gives j to an idle worker, or to a new one.
func (r *goroutines) hand(j job) {
	select {
	case r.jobs <- j:
	default: // every worker is busy (or on its way back): one more
		go r.work(j)
	}
}

// work makes visits until the run is over.
func (r *goroutines) work(j job) {
	for ok := true; ok; j, ok = <-r.jobs {
		r.done <- finished{j.node, j.visit(r.ctx)}
	}
}

func (r *goroutines) Next() (int, Outcome) {
	if r.pended {
		j := r.pending
		r.pending, r.pended = job{}, false
		if r.running == 1 {
			r.running--
			return j.node, j.visit(r.ctx)
		}
		r.hand(j)
	}
	f := <-r.done
	r.running--
	return f.node, f.outcome
}

func (r *goroutines) Cancel() { r.cancel() }

// RunOn is RunNotify with the visits run by r. ctx ending stops new
// visits from starting; stopping those that run is r's (Cancel).
func (g *Graph[K]) RunOn(ctx context.Context, parallel int, visit Visit[K], wait func(K), r Runner) []K {
	n := len(g.nodes)
	// never more slots than nodes
	parallel = max(min(parallel, n), 1)

	height := g.heights()
	indeg := make([]int, n)
	ready := &readyQueue{height: height}
	for i := range n {
		indeg[i] = len(g.deps[i])
		if indeg[i] == 0 {
			ready.items = append(ready.items, i)
		}
	}
	heap.Init(ready)

	started, told := make([]bool, n), make([]bool, n)
	running, stopping := 0, false
	for {
		for !stopping && running < parallel && ready.Len() > 0 {
			if ctx.Err() != nil {
				stopping = true
				break
			}
			i := heap.Pop(ready).(int)
			started[i] = true
			running++
			r.Start(i, func(ctx context.Context) Outcome { return visit(ctx, g.nodes[i]) })
		}
		if running == 0 {
			break
		}
		for _, i := range ready.items {
			if wait != nil && !stopping && !told[i] {
				told[i] = true
				wait(g.nodes[i])
			}
		}
		node, outcome := r.Next()
		running--
		switch outcome {
		case Stop:
			stopping = true
			r.Cancel()
		case Drain:
			stopping = true
		}
		if stopping || outcome == Hold {
			continue
		}
		for _, d := range g.dependents[node] {
			indeg[d]--
			if indeg[d] == 0 {
				heap.Push(ready, d)
			}
		}
	}
	var skipped []K
	for i, s := range started {
		if !s {
			skipped = append(skipped, g.nodes[i])
		}
	}
	return skipped
}

// heights is the length of the longest path from each node to a sink.
func (g *Graph[K]) heights() []int {
	h := make([]int, len(g.nodes))
	for p := len(g.order) - 1; p >= 0; p-- {
		i := g.order[p]
		for _, d := range g.dependents[i] {
			if h[d]+1 > h[i] {
				h[i] = h[d] + 1
			}
		}
	}
	return h
}

// readyQueue orders ready nodes by height, then declaration order.
type readyQueue struct {
	items  []int
	height []int
}

func (q *readyQueue) Len() int { return len(q.items) }
func (q *readyQueue) Less(a, b int) bool {
	ha, hb := q.height[q.items[a]], q.height[q.items[b]]
	if ha != hb {
		return ha > hb
	}
	return q.items[a] < q.items[b]
}
func (q *readyQueue) Swap(a, b int) { q.items[a], q.items[b] = q.items[b], q.items[a] }
func (q *readyQueue) Push(x any)    { q.items = append(q.items, x.(int)) }
func (q *readyQueue) Pop() any {
	last := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return last
}
