package authoring

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	yaml "go.yaml.in/yaml/v4"
)

// StructuralIssue is one finding of a structural analysis: which rule,
// how grave (error or warning), where in the candidate (a JSON pointer)
// and what is wrong. mcp-flowgate's authoring workflows branch on these.
type StructuralIssue struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Location string `json:"location"`
	Message  string `json:"message"`
}

// StructuralRules are the rules a structural analysis applies, in the
// order it applies them: mcp-flowgate's closed set (SPEC §18.1), so that
// a workflow written for its structural_analysis executor reads the same
// issues here.
var StructuralRules = []string{"NO_TRANSITIONS", "UNDEFINED_TARGET", "DEAD_STATE", "CYCLE_DETECTED", "OVERSIZED_STATE", "UNDECLARED_SLOT_READ", "UNBLESSED_SUBJECT_ROOT"}

// OversizedState is how many transitions a state may have before the
// analysis warns of it.
const OversizedState = 8

// BlessedSubjectRoots are the first segments a skill's subject may have
// without a warning (mcp-flowgate's taxonomy of guidance).
var BlessedSubjectRoots = []string{"authoring", "debug", "deploy", "import", "lifecycle", "triage", "diagnose", "plan", "implement", "review", "refactor", "explain", "compose", "research", "summarize"}

// AnalyzeStructure checks a candidate definition against the structural
// rules: a workflow file ({workflows, skills}), or one bare workflow
// ({initialState, states}, analysed as workflow "candidate"), given as a
// value or as its YAML or JSON text. Map keys are visited in sorted
// order, so the same candidate always gives the same issues in the same
// order. A candidate that is not a mapping is an error, not a pass.
func AnalyzeStructure(candidate any) ([]StructuralIssue, error) {
	def, err := readCandidate(candidate)
	if err != nil {
		return nil, err
	}
	if _, wrapped := def["workflows"]; !wrapped && def["initialState"] != nil && def["states"] != nil {
		def = map[string]any{"workflows": map[string]any{"candidate": def}}
	}
	a := &analysis{}
	workflows, _ := def["workflows"].(map[string]any)
	for _, rule := range []func(id string, wf map[string]any){a.noTransitions, a.undefinedTarget, a.deadState, a.cycles, a.oversized, a.undeclaredSlots} {
		for _, id := range slices.Sorted(maps.Keys(workflows)) {
			wf, _ := workflows[id].(map[string]any)
			rule(id, wf)
		}
	}
	skills, _ := def["skills"].(map[string]any)
	for _, subject := range slices.Sorted(maps.Keys(skills)) {
		root, _, _ := strings.Cut(subject, ".")
		if !slices.Contains(BlessedSubjectRoots, root) {
			a.add("UNBLESSED_SUBJECT_ROOT", "warning", "/skills/"+subject, "subject '%s' has unblessed first segment '%s'; blessed roots: [%s]", subject, root, `"`+strings.Join(BlessedSubjectRoots, `", "`)+`"`)
		}
	}
	return a.issues, nil
}

// readCandidate is a candidate definition as a mapping, its YAML or
// JSON text read first; anything else is an error.
func readCandidate(candidate any) (map[string]any, error) {
	if text, ok := candidate.(string); ok {
		var v any
		if err := yaml.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("the definition is text that is not YAML or JSON: %v", interp.FirstLine(err.Error()))
		}
		candidate = v
	}
	def, ok := chain.NormalizeYAML(candidate).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the definition is %s, not a workflow file or workflow (a mapping)", describeJSON(chain.NormalizeYAML(candidate)))
	}
	return def, nil
}

// analysis collects the issues the rules find.
type analysis struct{ issues []StructuralIssue }

func (a *analysis) add(rule, severity, location, format string, args ...any) {
	a.issues = append(a.issues, StructuralIssue{Rule: rule, Severity: severity, Location: location, Message: fmt.Sprintf(format, args...)})
}

// wfState is one state of a candidate workflow, with its transitions.
type wfState struct {
	name        string
	transitions map[string]map[string]any
}

// statesOf are a candidate workflow's states in name order.
func statesOf(wf map[string]any) []wfState {
	states, _ := wf["states"].(map[string]any)
	out := make([]wfState, 0, len(states))
	for _, name := range slices.Sorted(maps.Keys(states)) {
		s := wfState{name: name, transitions: map[string]map[string]any{}}
		st, _ := states[name].(map[string]any)
		ts, _ := st["transitions"].(map[string]any)
		for t, v := range ts {
			m, _ := v.(map[string]any)
			s.transitions[t] = m
		}
		out = append(out, s)
	}
	return out
}

// sortedTransitions are a state's transition names in order.
func (s wfState) sortedTransitions() []string { return slices.Sorted(maps.Keys(s.transitions)) }

func targetOf(t map[string]any) (string, bool) {
	target, ok := t["target"].(string)
	return target, ok
}

// noTransitions: a workflow whose states have no transition at all.
func (a *analysis) noTransitions(id string, wf map[string]any) {
	for _, s := range statesOf(wf) {
		if len(s.transitions) > 0 {
			return
		}
	}
	a.add("NO_TRANSITIONS", "error", "/workflows/"+id, "workflow '%s' has zero transitions across all states", id)
}

// undefinedTarget: a transition whose target names no state.
func (a *analysis) undefinedTarget(id string, wf map[string]any) {
	states, _ := wf["states"].(map[string]any)
	for _, s := range statesOf(wf) {
		for _, t := range s.sortedTransitions() {
			target, ok := targetOf(s.transitions[t])
			if _, declared := states[target]; ok && !declared {
				a.add("UNDEFINED_TARGET", "error", fmt.Sprintf("/workflows/%s/states/%s/transitions/%s/target", id, s.name, t), "transition '%s' targets undefined state '%s'", t, target)
			}
		}
	}
}

// deadState: a state no transition leads to that is not the initial one.
func (a *analysis) deadState(id string, wf map[string]any) {
	initial, _ := wf["initialState"].(string)
	inbound := map[string]bool{}
	states := statesOf(wf)
	for _, s := range states {
		for _, t := range s.transitions {
			if target, ok := targetOf(t); ok {
				inbound[target] = true
			}
		}
	}
	for _, s := range states {
		if !inbound[s.name] && s.name != initial {
			a.add("DEAD_STATE", "error", fmt.Sprintf("/workflows/%s/states/%s", id, s.name), "state '%s' has no inbound transition and is not the initial state", s.name)
		}
	}
}

// cycles: a state the run can come back to through transitions none of
// which has a guard — a loop with no way to stop. A cycle with a guard
// anywhere on it (a counter that ends a retry loop) is no issue. One
// issue per state on such a cycle, naming the path found first.
func (a *analysis) cycles(id string, wf map[string]any) {
	states := statesOf(wf)
	unguarded := map[string][]string{}
	for _, s := range states {
		for _, t := range s.sortedTransitions() {
			tr := s.transitions[t]
			guards, _ := tr["guards"].([]any)
			if target, ok := targetOf(tr); ok && len(guards) == 0 {
				unguarded[s.name] = append(unguarded[s.name], target)
			}
		}
	}
	type frame struct {
		node string
		path []string
	}
	for _, s := range states {
		start := s.name
		stack := []frame{{start, []string{start}}}
		seen := map[string]bool{}
	search:
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[f.node] {
				continue
			}
			seen[f.node] = true
			for _, next := range unguarded[f.node] {
				if next == start {
					a.add("CYCLE_DETECTED", "error", fmt.Sprintf("/workflows/%s/states/%s", id, start), "unguarded cycle in workflow '%s': %s → %s", id, strings.Join(f.path, " → "), start)
					break search
				}
				if !seen[next] && !slices.Contains(f.path, next) {
					stack = append(stack, frame{next, append(slices.Clone(f.path), next)})
				}
			}
		}
	}
}

// oversized: a state with more transitions than a reader can weigh.
func (a *analysis) oversized(id string, wf map[string]any) {
	for _, s := range statesOf(wf) {
		if n := len(s.transitions); n > OversizedState {
			a.add("OVERSIZED_STATE", "warning", fmt.Sprintf("/workflows/%s/states/%s", id, s.name), "state '%s' has %d transitions (threshold: %d)", s.name, n, OversizedState)
		}
	}
}

// undeclaredSlots: a guard's expression reading $.context.X where X is
// not a slot of the workflow's blackboard.
func (a *analysis) undeclaredSlots(id string, wf map[string]any) {
	declared := map[string]bool{}
	switch bb := wf["blackboard"].(type) {
	case []any:
		for _, x := range bb {
			if name, ok := x.(string); ok {
				declared[name] = true
			}
		}
	case map[string]any:
		for name := range bb {
			declared[name] = true
		}
	}
	for _, s := range statesOf(wf) {
		for _, t := range s.sortedTransitions() {
			guards, _ := s.transitions[t]["guards"].([]any)
			for i, g := range guards {
				m, _ := g.(map[string]any)
				expr, _ := m["expr"].(string)
				for _, slot := range contextSlots(expr) {
					if !declared[slot] {
						a.add("UNDECLARED_SLOT_READ", "error", fmt.Sprintf("/workflows/%s/states/%s/transitions/%s/guards/%d", id, s.name, t, i), "guard reads `$.context.%s` which is not declared in workflow blackboard", slot)
					}
				}
			}
		}
	}
}

// contextSlots are the slot names an expression reads as $.context.X, in
// the order written.
func contextSlots(expr string) []string {
	const needle = "$.context."
	var out []string
	for {
		i := strings.Index(expr, needle)
		if i < 0 {
			return out
		}
		expr = expr[i+len(needle):]
		end := strings.IndexFunc(expr, func(r rune) bool {
			return !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		})
		if end < 0 {
			end = len(expr)
		}
		if end > 0 {
			out = append(out, expr[:end])
		}
	}
}

// describeJSON names the JSON type of a value, for messages.
func describeJSON(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list"
	case string:
		return "text"
	case bool:
		return "a boolean"
	}
	return "a number"
}
