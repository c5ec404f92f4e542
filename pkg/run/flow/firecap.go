package flow

import (
	"fmt"

	"github.com/chainrun/chainrun/pkg/chain"
)

// overCap says why t may not fire again in the state the run is at: it
// fired max_fires_per_visit times since the run entered it; "" when it
// may.
func (f *flow) overCap(t *chain.Transition) string {
	limit, capped := t.FireCap()
	if !capped {
		return ""
	}
	if n := f.firesThisVisit(f.state, t.Name); n >= limit {
		return fmt.Sprintf("its max_fires_per_visit of %d is reached in state %s (fires since the run entered it: %d); the count starts again once the run leaves the state", limit, f.state, n)
	}
	return ""
}

// firesThisVisit counts the moves by transition name the run made since
// it last entered state: its self-loops since the last move from
// another state (a state's onEnter record is no move).
func (f *flow) firesThisVisit(state, name string) int {
	n := 0
	for i := len(f.history) - 1; i >= 0; i-- {
		h := f.history[i]
		if h.Hook && h.From == state && h.To == state {
			continue
		}
		if h.From != state || h.To != state {
			break
		}
		if !h.Hook && h.Transition == name {
			n++
		}
	}
	return n
}
