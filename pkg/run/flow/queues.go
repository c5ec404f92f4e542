package flow

import (
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// noteArrival keeps the transition a record took to a new state.
func (f *flow) noteArrival(rec record.TransitionRecord) {
	if rec.Hook {
		if rec.From != rec.To {
			f.cameBy = nil
		}
		return
	}
	f.cameBy = nil
	if s := f.w.State(rec.From); s != nil {
		f.cameBy = s.Transition(rec.Transition)
	}
}

// queues are the approval queues a paused run waits in, once each.
func (f *flow) queues() []string {
	var out []string
	add := func(t *chain.Transition) {
		if t != nil && t.Executor != nil && t.Executor.Kind == chain.KindHuman && chain.Queue(t.Executor) != "" && !slices.Contains(out, chain.Queue(t.Executor)) {
			out = append(out, chain.Queue(t.Executor))
		}
	}
	add(f.cameBy)
	if s := f.w.State(f.state); s != nil {
		for _, t := range f.offered(s) {
			add(t)
		}
	}
	return out
}
