package chain

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// ValidStepID reports whether id can name a step, a state or a
// transition: letters, digits, '-' and '_'.
func ValidStepID(id string) bool {
	if id == "" {
		return false
	}
	for _, r := range id {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// ValidChainName reports whether name can name a chain or a workflow:
// like a step id, and '.' after the first character.
func ValidChainName(name string) bool {
	if name == "" || name[0] == '-' || name[0] == '_' || name[0] == '.' {
		return false
	}
	return ValidStepID(strings.ReplaceAll(name, ".", "_"))
}

// LazyRegexp compiles a pattern on first use, keeping start-up fast for
// commands that never need it.
func LazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// reservedVars cannot be an output_var: they have a meaning of their own.
var reservedVars = map[string]bool{"input": true, "item": true}

// validator checks one chain and compiles its steps.
type validator struct {
	d       *yamlpos.Diags
	c       *Chain
	opts    Options
	g       *dag.Graph[string]
	produce map[string]*Step // variable → the step whose output it is
	// wfVars are the variables a workflow's transitions, tasks and
	// composes produce (nil for a DAG chain).
	wfVars map[string]bool
	// toolSteps are the executors of chain-defined tools, which read
	// their call's arguments instead of the run's variables.
	toolSteps map[*Step]bool
}

// validate checks everything that can be known before a run and compiles
// templates and expressions. Findings go to d.
func validate(d *yamlpos.Diags, c *Chain, opts Options) {
	v := &validator{d: d, c: c, opts: opts, produce: map[string]*Step{}, toolSteps: map[*Step]bool{}}
	v.chainFields()
	v.inputs()
	idsOK := v.steps()
	handlers := v.handlers()
	// tools read only their arguments: they are checked whatever the
	// steps' graph looks like
	v.toolDefs()
	// a cycle, a missing or repeated id or another step's error hides no
	// reference: without the graph, what a step reads is checked against
	// what exists, not against its dependencies
	if idsOK {
		v.graph()
	}
	v.compileAll()
	for _, s := range handlers {
		v.compile(s)
	}
	v.output()
	v.unusedOutputs()
	d.Sort()
}

// unusedOutputs warns about output_vars that no step, expression or the
// chain's output reads: usually a typo on one side, or dead work; or a
// value read from the JSON result, so the warning is a Lint.
func (v *validator) unusedOutputs() {
	used := map[string]bool{v.c.Output: true}
	v.c.Walk(func(s *Step) {
		for name := range s.readNames() {
			used[name] = true
		}
		for _, name := range s.MergeInputs() {
			used[strings.SplitN(name, ".", 2)[0]] = true
		}
	})
	for _, s := range v.c.Steps {
		if s.OutputVar == "" || s.piped || used[s.OutputVar] || used[s.OutputVar+"_status"] {
			continue
		}
		v.d.Lintf(s.At("output_var"), "step %q: output_var %s is never read (no step, expression or output uses it)", s.ID, s.OutputVar)
	}
}

// readNames lists the variables a compiled step reads.
func (s *Step) readNames() map[string]bool {
	out := map[string]bool{}
	c := s.compiled
	if c == nil {
		return out
	}
	addT := func(t *Template) {
		if t != nil {
			for _, r := range t.Refs() {
				out[r.Name] = true
			}
		}
	}
	for _, t := range []*Template{c.Prompt, c.System, c.Command, c.Run, c.Cwd, c.URL, c.Body, c.Path, c.ForEach, c.TemplateStr, c.InputVar} {
		addT(t)
	}
	for _, m := range []map[string]*Template{c.Headers, c.With} {
		for _, t := range m {
			addT(t)
		}
	}
	addA := func(a Arg) {
		addT(a.Template)
		if name, _ := JSONPathHead(a.Raw); name != "" {
			out[name] = true
		}
	}
	for _, a := range c.Args {
		addA(a)
	}
	if c.PathJSON != nil {
		addA(*c.PathJSON)
	}
	for _, a := range c.Env {
		addA(a)
	}
	for _, p := range c.PreTools {
		for _, t := range []*Template{p.Command, p.Run, p.URL, p.Path, p.Body, p.Content, p.Query} {
			addT(t)
		}
		for _, t := range p.Args {
			addT(t)
		}
		for _, t := range p.Headers {
			addT(t)
		}
	}
	for _, e := range []*Expression{c.Condition, c.EarlyExitIf, c.Transform, c.LoopUntil} {
		if e != nil {
			for _, n := range e.Names {
				out[n] = true
			}
		}
	}
	return out
}

// compileAll compiles every step; a large chain is split across the
// processors (steps compile independently once the graph is known).
func (v *validator) compileAll() {
	steps := v.c.Steps
	workers := runtime.GOMAXPROCS(0)
	if len(steps) < 256 || workers < 2 {
		for _, s := range steps {
			v.compile(s)
		}
		return
	}
	var wg sync.WaitGroup
	chunk := (len(steps) + workers - 1) / workers
	for start := 0; start < len(steps); start += chunk {
		part := steps[start:min(start+chunk, len(steps))]
		wg.Go(func() {
			for _, s := range part {
				v.compile(s)
			}
		})
	}
	wg.Wait()
}

func (v *validator) chainFields() {
	c := v.c
	switch {
	case c.Name == "" && slices.Contains(c.meant, "name"):
	case c.Name == "":
		v.d.Errorf(c.Pos, "name is required: the name `chainrun run` finds the chain by")
	case !ValidChainName(c.Name):
		v.d.Errorf(c.Pos, "name %q: use letters, digits, '-', '_' and '.' (kebab-case is usual)", c.Name)
	}
	switch {
	case len(c.Steps) > 0, slices.Contains(c.meant, "steps"):
	case c.Empty():
		v.d.Warnf(c.Pos, "steps: the chain holds no step, as OCC's canvas saves a workspace: it loads, and a run of it is refused before anything runs, as OCC's executor refuses it (chainrun's own format needs at least one step)")
	default:
		v.d.Errorf(c.Pos, "steps: a chain needs at least one step")
	}
	if b := c.Budget; b != nil && (b.MaxTokens < 0 || b.MaxLLMCalls < 0) {
		v.d.Errorf(c.Pos, "budget: max_tokens and max_llm_calls cannot be negative")
	}
	if b := c.Budget; b != nil && !(b.MaxCostUSD >= 0 && b.MaxCostUSD < math.Inf(1)) {
		v.d.Errorf(c.Pos, "budget: max_cost_usd %v: want 0 (no cap) or more US dollars", b.MaxCostUSD)
	}
}

func (v *validator) inputs() {
	seen := map[string]bool{}
	for _, in := range v.c.Inputs {
		switch {
		case in.Name == "":
			v.d.Errorf(in.Pos, "input: name is required")
		case !IsIdentifier(in.Name):
			v.d.Errorf(in.Pos, "input %q: a name is letters, digits and '_' so that {input.%s} can refer to it", in.Name, in.Name)
		case seen[in.Name]:
			v.d.Errorf(in.Pos, "input %q is declared twice", in.Name)
		case in.Default != nil && len(in.Enum) > 0 && !slices.Contains(in.Enum, *in.Default):
			v.d.Errorf(in.Pos, "input %q: default %q is not one of its enum values (%s)", in.Name, *in.Default, strings.Join(in.Enum, ", "))
		case in.Type != "" && !slices.Contains(InputTypes, in.Type):
			v.d.Errorf(in.Pos, "input %q: type %q%s: use %s", in.Name, in.Type, didYouMean(in.Type, InputTypes), strings.Join(InputTypes, ", "))
		case in.Default != nil && v.c.checkValue(in.Type, *in.Default) != nil:
			v.d.Errorf(in.Pos, "input %q: default: %v", in.Name, v.c.checkValue(in.Type, *in.Default))
		default:
			v.readingInputDefault(in)
			v.inputRules(in)
		}
		seen[in.Name] = true
	}
}

// steps checks ids, kinds, the fields each kind allows and output_vars.
// It reports whether the steps are sound enough to build the graph.
func (v *validator) steps() bool {
	ok := true
	v.c.byID = map[string]*Step{}
	for _, s := range v.c.Steps {
		// a step without an id of its own is still checked (its kind,
		// fields and references), but produces nothing others may read
		named := true
		switch {
		case s.ID == "":
			v.d.Errorf(s.Pos, "step: id is required")
			s.label = fmt.Sprintf("the step at line %d", s.Pos.Line)
			named = false
		case !ValidStepID(s.ID):
			v.d.Errorf(s.At("id"), "step id %q: use letters, digits, '-' and '_'", s.ID)
		}
		if prev, dup := v.c.byID[s.ID]; dup && named {
			v.d.Errorf(s.At("id"), "step id %q is already used by the step at line %d", s.ID, prev.Pos.Line)
			named = false
		} else if named {
			v.c.byID[s.ID] = s
		}
		ok = ok && named
		kind, known := kindOf(s.Type)
		if !known {
			v.d.Errorf(s.At("type"), "%s", unknownKind(stepName(s), "type", s.Type, Kinds()))
			continue
		}
		s.Kind = kind
		v.kindFields(s)
		if named {
			v.outputVar(s)
		}
	}
	return ok
}

func (v *validator) outputVar(s *Step) {
	if s.OutputVar == "" {
		return
	}
	odd := !IsIdentifier(s.OutputVar)
	if odd && v.c.reads().LooseOutputNames {
		v.looseOutputName(s)
		odd = false
	}
	switch {
	case odd:
		v.d.Errorf(s.At("output_var"), "step %q: output_var %q: a variable name is letters, digits and '_'", s.ID, s.OutputVar)
	case reservedVars[s.OutputVar]:
		v.d.Errorf(s.At("output_var"), "step %q: output_var %q is reserved", s.ID, s.OutputVar)
	case v.produce[s.OutputVar] != nil:
		prev := v.produce[s.OutputVar]
		v.d.Errorf(s.At("output_var"), "step %q: output_var %q is already the output of step %q (line %d)", s.ID, s.OutputVar, prev.ID, prev.Pos.Line)
	case s.Kind == KindHTTP && v.produce[s.OutputVar+"_status"] != nil:
		prev := v.produce[s.OutputVar+"_status"]
		v.d.Errorf(s.At("output_var"), "step %q: an http step also sets %s_status, which is already the output of step %q (line %d)", s.ID, s.OutputVar, prev.ID, prev.Pos.Line)
	default:
		v.produce[s.OutputVar] = s
		if s.Kind == KindHTTP {
			v.produce[s.OutputVar+"_status"] = s
		}
	}
}

// graph checks depends_on and builds the dependency graph.
func (v *validator) graph() bool {
	ids := make([]string, len(v.c.Steps))
	for i, s := range v.c.Steps {
		ids[i] = s.ID
	}
	ok := true
	for _, s := range v.c.Steps {
		for _, dep := range s.DependsOn {
			switch {
			case dep == s.ID:
				v.d.Errorf(s.At("depends_on"), "step %q depends on itself", s.ID)
				ok = false
			case v.c.byID[dep] == nil:
				// the rest of the graph is checked without it; what the
				// step reads is then not held to its dependencies
				v.d.LooseErrorf(s.At("depends_on"), "step %q: depends_on names %q, which is not a step%s", s.ID, dep, didYouMean(dep, ids))
				s.lostDeps = true
			}
		}
		if s.lostDeps { // an invalid chain is never returned
			s.DependsOn = slices.DeleteFunc(s.DependsOn, func(dep string) bool { return dep == s.ID || v.c.byID[dep] == nil })
		}
	}
	if !ok {
		return false
	}
	g, err := dag.New(ids, func(id string) []string { return v.c.byID[id].DependsOn })
	if err != nil {
		var cyc *dag.CycleError[string]
		if errors.As(err, &cyc) {
			first := v.c.byID[cyc.Path[0]]
			v.d.Errorf(first.At("depends_on"), "%s (each step depends on the next)", cyc.Error())
		} else {
			v.d.Errorf(v.c.Pos, "%v", err)
		}
		return false
	}
	v.g = g
	return true
}

// Graph returns the dependency graph of a validated chain.
func (c *Chain) Graph() *dag.Graph[string] {
	g, err := dag.New(c.StepIDs(), func(id string) []string { return c.byID[id].DependsOn })
	if err != nil {
		panic("chain.Graph on an unvalidated chain: " + err.Error())
	}
	return g
}

func (c *Chain) StepIDs() []string {
	ids := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		ids[i] = s.ID
	}
	return ids
}

func (v *validator) output() {
	c := v.c
	if c.Output == "" {
		return
	}
	if p := v.produce[c.Output]; p != nil && p.lifecycle != "" {
		v.d.Errorf(c.OutputPos, "output %q is the output_var of %s: the output is the chain's, decided before its handlers run", c.Output, p.Subject())
	}
	if v.produce[c.Output] == nil && !c.Empty() {
		var vars []string
		for name := range v.produce {
			vars = append(vars, name)
		}
		sort.Strings(vars)
		v.d.Errorf(c.OutputPos, "output %q names no step's output_var%s", c.Output, didYouMean(c.Output, vars))
	}
}
