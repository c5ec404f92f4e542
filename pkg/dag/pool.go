package dag

import "sync"

// Workers run jobs (a for_each loop's items) on goroutines kept from one
// job to the next, as RunOn's default Runner keeps a finished visit's
// goroutine for the next node. A goroutine started per item grows its
// stack afresh for every command it starts (each growth a copy of the
// stack), a cost a separate step does not pay. At most size goroutines are started, the
// first when an item finds none free; every item is handed over holding
// one of the run's item slots, so with size no less than those slots an
// item never waits for a worker longer than another item takes to
// return its slot.
type Workers struct {
	work    chan func()
	size    int
	started int
	wg      sync.WaitGroup
}

// NewWorkers is a pool of at most size workers (at least one).
func NewWorkers(size int) *Workers {
	return &Workers{work: make(chan func()), size: max(size, 1)}
}

// Do runs job on a free worker, starting one if none is free and fewer
// than size are, else waiting for one. Only one goroutine calls Do.
func (w *Workers) Do(job func()) {
	select {
	case w.work <- job:
		return
	default:
	}
	if w.started < w.size {
		w.started++
		w.wg.Go(func() {
			job()
			for job := range w.work {
				job()
			}
		})
		return
	}
	w.work <- job
}

// Wait lets the workers end once their items are done and waits for
// them; Do is not called after it.
func (w *Workers) Wait() {
	close(w.work)
	w.wg.Wait()
}
