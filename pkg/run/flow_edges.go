package run

import (
	"strconv"

	"github.com/chainrun/chainrun/pkg/chain"
)

// traversed counts the moves along an edge the run has made, replayed
// ones included (edge_traversed_at_least, {{edge_count:a->b}}).
func (f *flow) traversed(e chain.Edge) int {
	n := 0
	for _, h := range f.history {
		if h.Enter && h.From == h.To {
			continue // a state's onEnter: no move
		}
		if h.From == e.From && h.To == e.To {
			n++
		}
	}
	return n
}

// countEdges sets the variables {{edge_count:a->b}} reads before a task
// runs.
func (f *flow) countEdges() {
	for name, e := range f.w.Counters {
		f.st.set(name, textValue(strconv.Itoa(f.traversed(e))))
	}
}
