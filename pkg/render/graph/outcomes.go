package graph

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/store"
)

// Outcomes maps a step id (or a workflow state) to what happened to it in
// a run: succeeded, failed, cancelled, skipped, cached, or current (where a workflow
// stands; current-failed when it failed there).
type Outcomes map[string]string

// outcomeStyles are the colours of each outcome, shared by both formats.
var outcomeStyles = sync.OnceValue(func() map[string]struct{ fill, stroke string } {
	return map[string]struct{ fill, stroke string }{
		"succeeded":      {"#bbf7d0", "#15803d"},
		"failed":         {"#fecaca", "#b91c1c"},
		"skipped":        {"#e5e7eb", "#6b7280"},
		"cancelled":      {"#fed7aa", "#c2410c"},
		"cached":         {"#bfdbfe", "#1d4ed8"},
		"current":        {"#fde68a", "#b45309"},
		"current-failed": {"#fecaca", "#b91c1c"},
	}
})

// FromRun is what happened to each step (or state) of c in a saved run
// of it: c is the chain of the run's snapshot.
func FromRun(c *chain.Chain, saved *store.Saved) Outcomes {
	out := Outcomes{}
	if c.Workflow != nil {
		state := c.Workflow.InitialState
		for _, t := range saved.Transitions {
			if t.Nested() {
				continue // a transition of a workflow a step runs
			}
			out[t.From] = "succeeded"
			out[t.To] = "succeeded"
			state = t.To
		}
		if res := saved.Result; res != nil && res.WorkflowResult != nil {
			state = res.State
		}
		if s := c.Workflow.State(state); s == nil || !s.Terminal {
			out[state] = "current"
			if res := saved.Result; res != nil && res.Status == record.Failed {
				out[state] = "current-failed"
			}
		}
		return out
	}
	for id, rec := range saved.Steps {
		out[id] = string(rec.Result.Status)
	}
	if res := saved.Result; res != nil {
		for _, s := range res.Steps {
			out[s.ID] = string(s.Status)
		}
	}
	return out
}

// mermaidClasses appends the class definitions and assignments that
// colour nodes by outcome.
func (o Outcomes) mermaidClasses(b *strings.Builder) {
	if len(o) == 0 {
		return
	}
	byClass := map[string][]string{}
	for id, outcome := range o {
		byClass[outcome] = append(byClass[outcome], MermaidID(id))
	}
	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		st, ok := outcomeStyles()[c]
		if !ok {
			continue
		}
		name := strings.ReplaceAll(c, "-", "_")
		width := "1px"
		if strings.HasPrefix(c, "current") {
			width = "3px"
		}
		ids := byClass[c]
		sort.Strings(ids)
		fmt.Fprintf(b, "  classDef %s fill:%s,stroke:%s,stroke-width:%s\n", name, st.fill, st.stroke, width)
		fmt.Fprintf(b, "  class %s %s\n", strings.Join(ids, ","), name)
	}
}

// dotAttrs are the DOT attributes that colour a node by its outcome.
func (o Outcomes) dotAttrs(id string) string {
	st, ok := outcomeStyles()[o[id]]
	if !ok {
		return ""
	}
	attrs := fmt.Sprintf(", style=\"rounded,filled\", fillcolor=%q, color=%q", st.fill, st.stroke)
	if strings.HasPrefix(o[id], "current") {
		attrs += ", penwidth=3"
	}
	return attrs
}
