package run

import (
	"slices"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// store holds a run's variables; steps write concurrently.
type Values struct {
	mu     sync.RWMutex
	inputs map[string]string
	// typed holds a workflow's inputs as inputSchema types them, for
	// expressions and JSONPath; nil for a DAG chain.
	typed map[string]any
	vars  map[string]interp.Value
	// order is the variables' names in the order first set: OCC's
	// context budget keeps the latest ones (context_budget.go).
	order []string
	// squeezed are the values OCC's context budget summarized or cut:
	// what later steps read in their place (the variables themselves,
	// and the result, stay whole).
	squeezed map[string]interp.Value
}

func newStore(inputs map[string]string) *Values {
	return &Values{inputs: inputs, vars: map[string]interp.Value{}}
}

func (s *Values) Set(name string, v interp.Value) {
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

func (s *Values) Get(name string) (interp.Value, bool) {
	s.mu.RLock()
	v, ok := s.vars[name]
	s.mu.RUnlock()
	return v, ok
}

// Scope is what one step (or one loop item) reads: the run's variables
// plus its pre_tools' data and loop item.
type Scope struct {
	Vars  *Values
	local map[string]interp.Value
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

func (sc Scope) lookup(name string) (interp.Value, bool) {
	if v, ok := sc.local[name]; ok {
		return v, true
	}
	return sc.Vars.read(name)
}

func (sc Scope) with(name string, v interp.Value) Scope {
	local := make(map[string]interp.Value, len(sc.local)+1)
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
	if !ok || v.Absent && r.Loose {
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
			env[name] = v.Expr(condition)
		}
	}
	return env
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
