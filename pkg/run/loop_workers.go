package run

import "sync"

// itemWorkers run a loop's items on goroutines kept from one item to the
// next, as the DAG driver keeps a finished visit's goroutine for the
// next node. A goroutine started per item grows its stack afresh for
// every command it starts (each growth a copy of the stack), a cost a
// separate step does not pay. At most size goroutines are started, the
// first when an item finds none free; every item is handed over holding
// one of the run's item slots, so with size no less than those slots an
// item never waits for a worker longer than another item takes to
// return its slot.
type itemWorkers struct {
	work    chan func()
	size    int
	started int
	wg      sync.WaitGroup
}

// newItemWorkers is a pool of at most size workers (at least one).
func newItemWorkers(size int) *itemWorkers {
	return &itemWorkers{work: make(chan func()), size: max(size, 1)}
}

// do runs job on a free worker, starting one if none is free and fewer
// than size are, else waiting for one. Only one goroutine calls do.
func (w *itemWorkers) do(job func()) {
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

// wait lets the workers end once their items are done and waits for
// them; do is not called after it.
func (w *itemWorkers) wait() {
	close(w.work)
	w.wg.Wait()
}
