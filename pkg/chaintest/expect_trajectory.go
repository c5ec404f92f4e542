package chaintest

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
)

// ToolsExpect is what an agent step's tool calls must be, as
// tools_called: takes them. Calls are the tools the model asked for, in
// the order asked, whether or not each was allowed to run.
type ToolsExpect struct {
	// Mode is exact (a plain list: these calls and no others, in this
	// order), in_order (these, in this order, others allowed between),
	// set (the distinct tools called are these, in any order) or
	// includes (each of these called at least once, others allowed).
	Mode  string
	Tools []string
}

// toolsModes are the mapping forms of tools_called.
var toolsModes = []string{"in_order", "set", "includes"}

// UnmarshalYAML takes a list (exact) or {in_order|set|includes: [...]}.
func (t *ToolsExpect) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		t.Mode = "exact"
		return n.Decode(&t.Tools)
	case yaml.MappingNode:
		if len(n.Content) != 2 {
			return fmt.Errorf("line %d: tools_called is a list, or one of {in_order: [...]}, {set: [...]}, {includes: [...]}", n.Line)
		}
		k, v := n.Content[0], n.Content[1]
		if !slices.Contains(toolsModes, k.Value) {
			return fmt.Errorf("line %d: tools_called: %s is not a form (in_order, set, includes)", k.Line, k.Value)
		}
		if v.Kind != yaml.SequenceNode {
			return fmt.Errorf("line %d: tools_called.%s is a list of tool names", v.Line, k.Value)
		}
		t.Mode = k.Value
		return v.Decode(&t.Tools)
	}
	return fmt.Errorf("line %d: tools_called is a list of tool names, or {in_order|set|includes: [...]}", n.Line)
}

// problem says how the calls made fail the expectation ("" when they
// hold).
func (t *ToolsExpect) problem(calls []string) string {
	got := "[" + strings.Join(calls, ", ") + "]"
	want := "[" + strings.Join(t.Tools, ", ") + "]"
	switch t.Mode {
	case "in_order":
		i := 0
		for _, c := range calls {
			if i < len(t.Tools) && c == t.Tools[i] {
				i++
			}
		}
		if i < len(t.Tools) {
			return fmt.Sprintf("want %s in this order, %s was not called after them; the calls were %s", want, t.Tools[i], got)
		}
	case "set":
		distinct := slices.Compact(slices.Sorted(slices.Values(calls)))
		w := slices.Compact(slices.Sorted(slices.Values(t.Tools)))
		if !slices.Equal(distinct, w) {
			return fmt.Sprintf("want the tools called to be {%s}, they were {%s}", strings.Join(w, ", "), strings.Join(distinct, ", "))
		}
	case "includes":
		for _, name := range t.Tools {
			if !slices.Contains(calls, name) {
				return fmt.Sprintf("want %s called, the calls were %s", name, got)
			}
		}
	default:
		if !slices.Equal(calls, t.Tools) {
			return fmt.Sprintf("want %s, the calls were %s", want, got)
		}
	}
	return ""
}

// toolCalls are the tools step id's model called, in order.
func (o *outcome) toolCalls(id string) []string {
	calls := []string{}
	for _, e := range o.events {
		if e.Type == event.ToolCall && e.Step == id {
			calls = append(calls, e.Tool)
		}
	}
	return calls
}

// turns is the longest run of model turns step id took: the turns of
// its tool loop (a step with no loop takes one), retries of a request
// not counted.
func (o *outcome) turns(id string) int {
	n := 0
	for _, e := range o.events {
		switch {
		case e.Type != event.LLMCall || e.Step != id:
		case e.Turn > 0:
			n = max(n, e.Turn)
		case e.Detail == "":
			n = max(n, 1)
		}
	}
	return n
}

// costWhere is what the model calls of the steps keep accepts cost at
// prices, and a model used that no price is known for.
func (o *outcome) costWhere(prices *llm.Prices, keep func(step string) bool) (cost float64, unpriced string) {
	if prices == nil {
		return 0, ""
	}
	for _, e := range o.events {
		if e.Type != event.LLMCall || e.Model == "" || (e.InputTokens == 0 && e.OutputTokens == 0) || !keep(e.Step) {
			continue
		}
		p, ok := prices.Of(e.Model)
		if !ok {
			unpriced = e.Model
			continue
		}
		cost += p.Cost(llm.Usage{InputTokens: e.InputTokens, OutputTokens: e.OutputTokens})
	}
	return cost, unpriced
}

// stepCost is what step id's model calls cost (those of the steps of a
// chain it calls included).
func (o *outcome) stepCost(id string, prices *llm.Prices) (float64, string) {
	return o.costWhere(prices, func(step string) bool { return step == id || strings.HasPrefix(step, id+"/") })
}

// stepMS is how long step id took, its attempts and retries' waits
// included (0 when it did not finish).
func (o *outcome) stepMS(id string) int64 {
	var ms int64
	for _, e := range o.events {
		if e.Type == event.StepFinished && e.Step == id {
			ms += e.DurationMS
		}
	}
	return ms
}

// runMS is how long the run took, start to finish.
func (o *outcome) runMS() int64 {
	var first, last int64 = -1, 0
	for _, e := range o.events {
		if e.Type == event.RunFinished && e.DurationMS > 0 {
			return e.DurationMS
		}
		if t := e.Time.UnixMilli(); !e.Time.IsZero() {
			if first < 0 {
				first = t
			}
			last = t
		}
	}
	return max(last-first, 0)
}

// trajectory checks an agent step's tool calls, turns, cost and time,
// each a recorded assertion.
func (k *checker) trajectory(what, id string, e *StepExpect, o *outcome, prices *llm.Prices) {
	if e.ToolsCalled != nil {
		p := e.ToolsCalled.problem(o.toolCalls(id))
		k.hold(what+".tools_called", p == "", "%s.tools_called: %s", what, p)
	}
	for _, name := range e.ToolsNotCalled {
		calls := o.toolCalls(id)
		k.hold(what+".tools_not_called", !slices.Contains(calls, name), "%s.tools_not_called: %s was called (the calls were [%s])", what, name, strings.Join(calls, ", "))
	}
	if e.MaxTurns != nil {
		n := o.turns(id)
		k.hold(what+".max_turns", n <= *e.MaxTurns, "%s.max_turns: the step took %d model turns, over %d", what, n, *e.MaxTurns)
	}
	if e.MaxCostUSD != nil {
		cost, unpriced := o.stepCost(id, prices)
		if unpriced != "" {
			k.hold(what+".max_cost_usd", false, "%s.max_cost_usd: no price is known for %s: add it under prices: in config", what, unpriced)
		} else {
			k.hold(what+".max_cost_usd", cost <= *e.MaxCostUSD, "%s.max_cost_usd: the step cost $%.6f, over $%g", what, cost, *e.MaxCostUSD)
		}
	}
	if e.MaxLatencyMS != nil {
		ms := o.stepMS(id)
		k.hold(what+".max_latency_ms", ms <= *e.MaxLatencyMS, "%s.max_latency_ms: the step took %d ms, over %d", what, ms, *e.MaxLatencyMS)
	}
}
