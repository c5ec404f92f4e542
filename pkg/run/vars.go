package run

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// Value is a variable: its text, and its structure when it has one (JSON
// output, a transform's result, a loop's list).
type Value struct {
	Text string
	Data any
	// JSON is true when the step that made it declared JSON output
	// (output_schema: json): a number or boolean text is then that value
	// in a transform, not a string.
	JSON bool
	// absent marks the empty output of a step a router left out in a
	// file read as OCC's: OCC never sets its variable, so a reference of
	// that file reads it as absent (its fallback, else its own text),
	// where a step skipped by its condition is an empty value.
	absent bool
}

// TextValue makes a Value of text, exposing fields when the text is a JSON
// object or array.
func TextValue(text string) Value {
	v := Value{Text: text}
	t := strings.TrimSpace(text)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		var d any
		if json.Unmarshal([]byte(t), &d) == nil {
			v.Data = d
		}
	}
	return v
}

// DataValue makes a Value of structured data; its text is the JSON.
func DataValue(d any) Value {
	if s, ok := d.(string); ok {
		return Value{Text: s}
	}
	b, err := json.Marshal(d)
	if err != nil {
		return Value{Text: fmt.Sprint(d), Data: d}
	}
	return Value{Text: string(b), Data: d}
}

// Public is how the value appears in the JSON result and in a step's
// structured output: its data, else its text.
func (v Value) Public() any {
	if v.Data != nil {
		return v.Data
	}
	return v.Text
}

// store holds a run's variables; steps write concurrently.
type Values struct {
	mu     sync.RWMutex
	inputs map[string]string
	// typed holds a workflow's inputs as inputSchema types them, for
	// expressions and JSONPath; nil for a DAG chain.
	typed map[string]any
	vars  map[string]Value
	// order is the variables' names in the order first set: OCC's
	// context budget keeps the latest ones (context_budget.go).
	order []string
	// squeezed are the values OCC's context budget summarized or cut:
	// what later steps read in their place (the variables themselves,
	// and the result, stay whole).
	squeezed map[string]Value
}

func newStore(inputs map[string]string) *Values {
	return &Values{inputs: inputs, vars: map[string]Value{}}
}

func (s *Values) Set(name string, v Value) {
	s.mu.Lock()
	if _, ok := s.vars[name]; !ok {
		s.order = append(s.order, name)
	}
	delete(s.squeezed, name)
	s.vars[name] = v
	s.mu.Unlock()
}

func (s *Values) Del(name string) {
	s.mu.Lock()
	delete(s.vars, name)
	delete(s.squeezed, name)
	if i := slices.Index(s.order, name); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	s.mu.Unlock()
}

func (s *Values) Get(name string) (Value, bool) {
	s.mu.RLock()
	v, ok := s.vars[name]
	s.mu.RUnlock()
	return v, ok
}

// Scope is what one step (or one loop item) reads: the run's variables
// plus its pre_tools' data and loop item.
type Scope struct {
	Vars  *Values
	local map[string]Value
	// jail, when set, is the directory a chain-defined tool's executor
	// is confined to (its calling step's cwd): every path it names,
	// from the model's arguments, must stay under it.
	jail string
	// note is added to the step's prompt: an evaluation fed back to the
	// step an evaluator runs again, the routes a router answers with.
	note string
	// key is the idempotency key the step's body sends ("" none), set
	// before its first attempt (idempotency.go); keySuffix tells a
	// parallel executor's branch apart, keyItem a for_each item (of a
	// key that is true); keyGiven marks a key handed to a step that
	// sends it in another's stead (a fallback executor sends its
	// primary's).
	key, keySuffix, keyItem string
	keyGiven                bool
}

func (sc Scope) lookup(name string) (Value, bool) {
	if v, ok := sc.local[name]; ok {
		return v, true
	}
	return sc.Vars.read(name)
}

func (sc Scope) with(name string, v Value) Scope {
	local := make(map[string]Value, len(sc.local)+1)
	for k, x := range sc.local {
		local[k] = x
	}
	local[name] = v
	out := sc
	out.local = local
	return out
}

// Resolve implements chain.Resolver.
func (sc Scope) Resolve(r chain.Ref) (string, bool, error) {
	if r.Name == "input" {
		if len(r.Path) == 0 && r.AllInputs {
			return sc.Vars.inputsJSON(), true, nil
		}
		if len(r.Path) != 1 {
			return "", false, nil
		}
		v, ok := sc.Vars.inputs[r.Path[0]]
		return v, ok, nil
	}
	v, ok := sc.lookup(r.Name)
	if !ok || v.absent && r.Loose {
		return "", false, nil
	}
	if len(r.Path) == 0 {
		return v.Text, true, nil
	}
	d, ok := interp.Walk(v.Data, r.Path)
	if !ok {
		return "", false, nil
	}
	return interp.TextOf(d), true, nil
}

// ExprEnv is the variables a condition reads, as expr-lang sees them:
// text that is a JSON number or boolean is one (so `count > 3` works; an
// integer beyond int64 stays text, whole). Only the names it uses are
// copied, so a step's cost does not grow with the number of variables in
// the run.
func (sc Scope) ExprEnv(names []string) map[string]any {
	return sc.env(names, true)
}

// ValueEnv is the variables a transform (or a JSONPath argument) reads:
// text stays text, exactly, unless it is a JSON object or array or its
// step declared JSON output. `"v-" + rev` works for rev 1234567, and a
// 20-digit id passes through unchanged.
func (sc Scope) ValueEnv(names []string) map[string]any {
	return sc.env(names, false)
}

func (sc Scope) env(names []string, condition bool) map[string]any {
	env := make(map[string]any, len(names))
	for _, name := range names {
		if name == "input" {
			in := make(map[string]any, len(sc.Vars.inputs))
			for k, v := range sc.Vars.inputs {
				in[k] = v
			}
			for k, v := range sc.Vars.typed {
				in[k] = v
			}
			env["input"] = in
			continue
		}
		if v, ok := sc.lookup(name); ok {
			env[name] = v.exprValue(condition)
		}
	}
	return env
}

func (v Value) exprValue(condition bool) any {
	switch {
	case v.Data != nil:
		return v.Data
	case v.JSON:
		return chain.ExprValue(v.Text)
	case condition:
		return chain.ConditionValue(v.Text)
	}
	return v.Text
}

// document is the run context as one JSON-like tree, for JSONPath
// arguments such as $.input.service; the input is also
// $.workflow.input, as mcp-flowgate reads it.
func (sc Scope) document() map[string]any {
	sc.Vars.mu.RLock()
	names := make([]string, 0, len(sc.Vars.vars)+len(sc.local)+1)
	for k := range sc.Vars.vars {
		names = append(names, k)
	}
	sc.Vars.mu.RUnlock()
	for k := range sc.local {
		names = append(names, k)
	}
	doc := sc.ValueEnv(append(names, "input"))
	if _, taken := doc["workflow"]; !taken {
		doc["workflow"] = map[string]any{"input": doc["input"]}
	}
	return doc
}
