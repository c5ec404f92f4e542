package chaintest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"

	"github.com/chainrun/chainrun/pkg/run/response"
)

// DecisionExpect is one decision a workflow's run must have made: at
// which state, which transition, and who chose it.
type DecisionExpect struct {
	// State is the decision point (any, when not given).
	State string
	// Take is the transition chosen.
	Take string
	// By is who chose: agent (any model), model:PROVIDER/MODEL, human,
	// script (the case's mocks.decisions), timeout (on_timeout) or caller
	// (resume --take). Any, when not given.
	By string
}

// decisionKeys are the fields of an expected decision.
var decisionKeys = []string{"state", "take", "by"}

// deciders are the values of by:.
var deciders = []string{"agent", "human", "script", "timeout", "caller"}

// UnmarshalYAML takes a transition name, or {state, take, by}.
func (d *DecisionExpect) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		d.Take = n.Value
		return nil
	}
	if err := knownKeys(n, "an expected decision", decisionKeys); err != nil {
		return err
	}
	var raw struct {
		State string `yaml:"state"`
		Take  string `yaml:"take"`
		By    string `yaml:"by"`
	}
	if err := n.Decode(&raw); err != nil {
		return err
	}
	if raw.Take == "" {
		return fmt.Errorf("line %d: an expected decision needs take: TRANSITION", n.Line)
	}
	if raw.By != "" && !strings.HasPrefix(raw.By, "model:") && !slices.Contains(deciders, raw.By) {
		return fmt.Errorf("line %d: by %q: who decides is one of %s, or model:PROVIDER/MODEL", n.Line, raw.By, strings.Join(deciders, ", "))
	}
	d.State, d.Take, d.By = raw.State, raw.Take, raw.By
	return nil
}

// matches reports whether a decision taken is the one expected.
func (d DecisionExpect) matches(c response.ChainEntry) bool {
	by := d.By == "" || c.DecidedBy == d.By || d.By == "agent" && strings.HasPrefix(c.DecidedBy, "model:")
	return (d.State == "" || c.FromState == d.State) && c.Transition == d.Take && by
}

func (d DecisionExpect) String() string {
	s := d.Take
	if d.State != "" {
		s = d.State + ": " + s
	}
	if d.By != "" {
		s += " by " + d.By
	}
	return s
}

// decisionText shows a decision taken as an expected one is written.
func decisionText(c response.ChainEntry) string {
	return DecisionExpect{State: c.FromState, Take: c.Transition, By: c.DecidedBy}.String()
}

// statesOf are the states a workflow's run passed through, in order: the
// one it started at, then each one a transition entered (a state entered
// again at once, by an on-enter hook or a transition back to it, listed
// once).
func statesOf(w *response.WorkflowResult) []string {
	if w == nil {
		return nil
	}
	if len(w.Chain) == 0 {
		return []string{w.State}
	}
	out := []string{w.Chain[0].FromState}
	for _, c := range w.Chain {
		if c.ToState != out[len(out)-1] {
			out = append(out, c.ToState)
		}
	}
	return out
}

// decisionsOf are the choices made at a workflow's decision points, in
// order (deterministic transitions are no decisions).
func decisionsOf(w *response.WorkflowResult) []response.ChainEntry {
	if w == nil {
		return nil
	}
	var out []response.ChainEntry
	for _, c := range w.Chain {
		if c.DecidedBy != "" {
			out = append(out, c)
		}
	}
	return out
}

// workflow checks the states a workflow passed through and the
// decisions it made.
func (k *checker) workflow(e *Expect, o *outcome) {
	w := o.res.WorkflowResult
	if e.States != nil {
		got := statesOf(w)
		k.hold("states", slices.Equal(got, e.States), "states: want [%s], the run passed through [%s]", strings.Join(e.States, ", "), strings.Join(got, ", "))
	}
	if e.Decisions == nil {
		return
	}
	got := decisionsOf(w)
	var shown []string
	for _, c := range got {
		shown = append(shown, decisionText(c))
	}
	ok := len(got) == len(e.Decisions)
	for i := 0; ok && i < len(got); i++ {
		ok = e.Decisions[i].matches(got[i])
	}
	var want []string
	for _, d := range e.Decisions {
		want = append(want, d.String())
	}
	k.hold("decisions", ok, "decisions: want [%s], the run decided [%s]", strings.Join(want, "; "), strings.Join(shown, "; "))
}

// checkTrajectories refuses trajectory expectations that cannot hold on
// c: tool and turn checks of a step that asks no model, states and
// decisions of a chain that is not a workflow, a decision at a state or
// by a transition the workflow lacks. bad reports one at a path under
// the case.
func checkTrajectories(tc *Case, c *chain.Chain, bad func(path []string, format string, args ...any)) {
	impossibleOutcome(tc, c, bad)
	if e := tc.Expect.MaxLatencyMS; e != nil && *e < 0 {
		bad([]string{"expect", "max_latency_ms"}, "%d is negative: a bound no run meets", *e)
	}
	if why := costBound(tc.Expect.MaxCostUSD); why != "" {
		bad([]string{"expect", "max_cost_usd"}, "%s %s no run meets", yamlNumber(*tc.Expect.MaxCostUSD), why)
	}
	for _, id := range slices.Sorted(maps.Keys(tc.Expect.Steps)) {
		e, s := tc.Expect.Steps[id], findStep(c, id)
		if e != nil {
			unmeetableLimits(e, func(key string, v any, why string) {
				bad([]string{"expect", "steps", id, key}, "%v %s no step meets", v, why)
			})
		}
		if s == nil || e == nil || !s.Kind.Deterministic() {
			continue
		}
		for i, set := range []bool{e.ToolsCalled != nil, e.ToolsNotCalled != nil, e.MaxTurns != nil} {
			if set {
				key := []string{"tools_called", "tools_not_called", "max_turns"}[i]
				bad([]string{"expect", "steps", id, key}, "step %s is a %s step: it asks no model and calls no tools", id, s.Kind)
			}
		}
	}
	if c.Workflow == nil {
		if tc.Expect.States != nil {
			bad([]string{"expect", "states"}, "%s is not a workflow", c.Name)
		}
		if tc.Expect.Decisions != nil {
			bad([]string{"expect", "decisions"}, "%s is not a workflow", c.Name)
		}
		return
	}
	states := map[string]bool{}
	for _, st := range c.Workflow.States {
		states[st.Name] = true
	}
	for i, name := range tc.Expect.States {
		if !states[name] {
			bad([]string{"expect", "states", fmt.Sprint(i)}, "%s has no state %s", c.Name, name)
		}
	}
	if name := tc.Expect.State; name != "" && !states[name] {
		bad([]string{"expect", "state"}, "%s has no state %s", c.Name, name)
	}
	transitions := map[string]bool{}
	for _, st := range c.Workflow.States {
		for _, t := range st.Transitions {
			transitions[t.Name] = true
		}
	}
	for i, name := range tc.Expect.Transitions {
		if !transitions[name] {
			bad([]string{"expect", "transitions", fmt.Sprint(i)}, "%s has no transition %s", c.Name, name)
		}
	}
	for i, d := range tc.Expect.Decisions {
		path := []string{"expect", "decisions", fmt.Sprint(i)}
		switch {
		case d.State != "" && !states[d.State]:
			bad(path, "%s has no state %s", c.Name, d.State)
		case d.State != "":
			if p := decisionProblem(c, d.State, d.Take); p != "" {
				bad(path, "%s", p)
			}
		}
	}
}

// unmeetableLimits reports each of a step's bounds that is negative (or,
// for a cost, not a number), with why no step meets it.
func unmeetableLimits(e *StepExpect, bad func(key string, v any, why string)) {
	const negative = "is negative: a bound"
	if e.MaxTurns != nil && *e.MaxTurns < 0 {
		bad("max_turns", *e.MaxTurns, negative)
	}
	if why := costBound(e.MaxCostUSD); why != "" {
		bad("max_cost_usd", yamlNumber(*e.MaxCostUSD), why)
	}
	if e.MaxLatencyMS != nil && *e.MaxLatencyMS < 0 {
		bad("max_latency_ms", *e.MaxLatencyMS, negative)
	}
}

// costBound says why a max_cost_usd is a bound nothing meets ("" when it
// is one): a negative cost, or .nan, which no cost is at or under.
func costBound(v *float64) string {
	switch {
	case v == nil:
		return ""
	case math.IsNaN(*v):
		return "is not a number: a bound"
	case *v < 0:
		return "is negative: a bound"
	}
	return ""
}

// yamlNumber is a number as a test file writes it: .nan, .inf, -.inf.
func yamlNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return ".nan"
	case math.IsInf(v, 1):
		return ".inf"
	case math.IsInf(v, -1):
		return "-.inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// runStatuses are the statuses a case's run can end with.
var runStatuses = []string{"succeeded", "failed", "paused", "interrupted", "cancelled", string(refused)}

// impossibleOutcome refuses what no run of c shows: a status no run ends
// with (a slip: succeded), an exit code chainrun never gives, a path
// through a step c lacks, a count below zero.
func impossibleOutcome(tc *Case, c *chain.Chain, bad func(path []string, format string, args ...any)) {
	e := tc.Expect
	if e.Status != "" && !slices.Contains(runStatuses, e.Status) {
		bad([]string{"expect", "status"}, "%q is no status a run ends with (%s)%s", e.Status, strings.Join(runStatuses, ", "), chain.DidYouMean(e.Status, runStatuses))
	}
	if e.ExitCode != nil && (*e.ExitCode < 0 || *e.ExitCode > 255) {
		bad([]string{"expect", "exit_code"}, "%d is no exit code: a process exits with 0 to 255", *e.ExitCode)
	}
	if c.Workflow == nil {
		for i, id := range e.Path {
			if findStep(c, id) == nil {
				bad([]string{"expect", "path", fmt.Sprint(i)}, "%s has no step %s", c.Name, id)
			}
		}
	}
	for key, n := range map[string]*int{"model_calls": e.ModelCalls, "max_tokens": e.MaxTokens} {
		if n != nil && *n < 0 {
			bad([]string{"expect", key}, "%d is negative: no run makes fewer than none", *n)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(e.Steps)) {
		se := e.Steps[id]
		if se == nil {
			continue
		}
		if se.Status != "" && !slices.Contains(stepStatuses, se.Status) {
			bad([]string{"expect", "steps", id, "status"}, "%q is no status a step ends with (%s)%s", se.Status, strings.Join(stepStatuses, ", "), chain.DidYouMean(se.Status, stepStatuses))
		}
		for key, n := range map[string]*int{"attempts": se.Attempts, "model_calls": se.ModelCalls, "tool_calls": se.ToolCalls} {
			if n != nil && *n < 0 {
				bad([]string{"expect", "steps", id, key}, "%d is negative: no step makes fewer than none", *n)
			}
		}
	}
}

// stepStatuses are the statuses a step can end with.
var stepStatuses = []string{"succeeded", "failed", "skipped", "cached", "cancelled", "interrupted", "running"}
