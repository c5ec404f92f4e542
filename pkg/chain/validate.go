package chain

import (
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/theory/jsonpath"
)

// validStepID: letters, digits, '-' and '_'.
func validStepID(id string) bool {
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

// validChainName: like a step id, and '.' after the first character.
func validChainName(name string) bool {
	if name == "" || name[0] == '-' || name[0] == '_' || name[0] == '.' {
		return false
	}
	return validStepID(strings.ReplaceAll(name, ".", "_"))
}

// lazyRegexp compiles a pattern on first use, keeping start-up fast for
// commands that never need it.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// reservedVars cannot be an output_var: they have a meaning of their own.
var reservedVars = map[string]bool{"input": true, "item": true}

// validator checks one chain and compiles its steps.
type validator struct {
	d       *diags
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
func validate(d *diags, c *Chain, opts Options) {
	v := &validator{d: d, c: c, opts: opts, produce: map[string]*Step{}, toolSteps: map[*Step]bool{}}
	v.chainFields()
	v.inputs()
	if !v.steps() {
		return
	}
	// tools read only their arguments: they are checked whatever the
	// steps' graph looks like
	v.toolDefs()
	if !v.graph() {
		return
	}
	v.compileAll()
	v.output()
	v.unusedOutputs()
	d.sort()
}

// unusedOutputs warns about output_vars that no step, expression or the
// chain's output reads: usually a typo on one side, or dead work.
func (v *validator) unusedOutputs() {
	used := map[string]bool{v.c.Output: true}
	for _, s := range v.c.Steps {
		for name := range s.readNames() {
			used[name] = true
		}
	}
	for _, s := range v.c.Steps {
		if s.OutputVar == "" || used[s.OutputVar] || used[s.OutputVar+"_status"] {
			continue
		}
		v.d.warnf(s.At("output_var"), "step %q: output_var %s is never read (no step, expression or output uses it)", s.ID, s.OutputVar)
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
	for _, t := range []*Template{c.Prompt, c.System, c.Command, c.Run, c.Cwd, c.URL, c.Body, c.Path, c.ForEach} {
		addT(t)
	}
	for _, m := range []map[string]*Template{c.Env, c.Headers, c.With} {
		for _, t := range m {
			addT(t)
		}
	}
	for _, a := range c.Args {
		addT(a.Template)
		if name, _ := jsonPathHead(a.Raw); name != "" {
			out[name] = true
		}
	}
	for _, p := range c.PreTools {
		for _, t := range []*Template{p.Command, p.Run, p.URL, p.Path} {
			addT(t)
		}
		for _, t := range p.Args {
			addT(t)
		}
		for _, t := range p.Headers {
			addT(t)
		}
	}
	for _, e := range []*Expression{c.Condition, c.EarlyExitIf, c.Transform} {
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
	case c.Name == "":
		v.d.errorf(c.Pos, "name is required: the name `chainrun run` finds the chain by")
	case !validChainName(c.Name):
		v.d.errorf(c.Pos, "name %q: use letters, digits, '-', '_' and '.' (kebab-case is usual)", c.Name)
	}
	if len(c.Steps) == 0 {
		v.d.errorf(c.Pos, "steps: a chain needs at least one step")
	}
	if b := c.Budget; b != nil && (b.MaxTokens < 0 || b.MaxLLMCalls < 0) {
		v.d.errorf(c.Pos, "budget: max_tokens and max_llm_calls cannot be negative")
	}
}

func (v *validator) inputs() {
	seen := map[string]bool{}
	for _, in := range v.c.Inputs {
		switch {
		case in.Name == "":
			v.d.errorf(in.Pos, "input: name is required")
		case !IsIdentifier(in.Name):
			v.d.errorf(in.Pos, "input %q: a name is letters, digits and '_' so that {input.%s} can refer to it", in.Name, in.Name)
		case seen[in.Name]:
			v.d.errorf(in.Pos, "input %q is declared twice", in.Name)
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
		switch {
		case s.ID == "":
			v.d.errorf(s.Pos, "step: id is required")
			ok = false
			continue
		case !validStepID(s.ID):
			v.d.errorf(s.At("id"), "step id %q: use letters, digits, '-' and '_'", s.ID)
		}
		if prev, dup := v.c.byID[s.ID]; dup {
			v.d.errorf(s.At("id"), "step id %q is already used by the step at line %d", s.ID, prev.Pos.Line)
			ok = false
			continue
		}
		v.c.byID[s.ID] = s
		kind, known := kindOf(s.Type)
		if !known {
			v.d.errorf(s.At("type"), "step %q: unknown type %q%s; types are %s", s.ID, s.Type, didYouMean(s.Type, Kinds()), strings.Join(Kinds(), ", "))
			continue
		}
		s.Kind = kind
		v.kindFields(s)
		v.outputVar(s)
	}
	return ok
}

func (v *validator) kindFields(s *Step) {
	var fields []string
	for f := range s.FieldPos {
		if !fieldAllowed(s.Kind, f) {
			fields = append(fields, f)
		}
	}
	sort.Slice(fields, func(i, j int) bool { return s.FieldPos[fields[i]].Line < s.FieldPos[fields[j]].Line })
	for _, f := range fields {
		if s.Kind.Deterministic() && slices.Contains(llmOnlyFields, f) {
			v.d.errorf(s.At(f), "step %q: %s configures a model call; a %s step runs no model", s.ID, f, s.Kind)
			continue
		}
		var owners []string
		for _, k := range []Kind{KindAgent, KindCLI, KindHTTP, KindTransform, KindFile, KindHuman, KindChain} {
			if slices.Contains(kindFields[k], f) {
				owners = append(owners, string(k))
			}
		}
		v.d.errorf(s.At(f), "step %q: %s does not belong to a %s step (it is a field of %s steps)", s.ID, f, s.Kind, strings.Join(owners, ", "))
	}
	switch s.Kind {
	case KindAgent:
		if s.Prompt == "" {
			v.d.errorf(s.Pos, "step %q: prompt is required for an agent step (set type: cli, http, transform or file for a step that needs no model)", s.ID)
		}
	case KindCLI:
		switch {
		case s.Command == "" && s.Run == "":
			v.d.errorf(s.Pos, "step %q: a %s step needs command (with args) or run (a script)", s.ID, s.Type)
		case s.Command != "" && s.Run != "":
			v.d.errorf(s.At("run"), "step %q: set command or run, not both", s.ID)
		case s.Run != "" && len(s.Args) > 0:
			v.d.errorf(s.At("args"), "step %q: args go with command; a run script takes its values by interpolation", s.ID)
		case s.Command != "" && len(s.Args) == 0 && strings.ContainsAny(strings.TrimSpace(s.Command), " \t"):
			v.d.errorf(s.At("command"), "step %q: command %q holds spaces: command is one program (no shell), so put its arguments in args, or use run for a shell script", s.ID, s.Command)
		}
	case KindHTTP:
		if s.URL == "" {
			v.d.errorf(s.Pos, "step %q: url is required for an http step", s.ID)
		}
		if s.Method != "" {
			m := strings.ToUpper(s.Method)
			if !slices.Contains([]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}, m) {
				v.d.errorf(s.At("method"), "step %q: method %q is not an HTTP method", s.ID, s.Method)
			}
			s.Method = m
		}
	case KindTransform:
		if s.Expr == "" {
			v.d.errorf(s.Pos, "step %q: expr is required for a transform step", s.ID)
		}
	case KindFile:
		if s.Path == "" {
			v.d.errorf(s.Pos, "step %q: path is required for a file step", s.ID)
		}
	case KindChain:
		if s.Chain == "" {
			v.d.errorf(s.Pos, "step %q: chain is required for a chain step (the name of the chain to call)", s.ID)
		}
	}
	v.commonFields(s)
}

func (v *validator) commonFields(s *Step) {
	if s.TimeoutMS < 0 {
		v.d.errorf(s.At("timeout_ms"), "step %q: timeout_ms must be positive", s.ID)
	}
	if r := s.Retry; r != nil {
		if r.Max < 1 {
			v.d.errorf(s.At("retry"), "step %q: retry.max is the number of attempts in all, so 1 or more", s.ID)
		}
		if r.DelayMS < 0 || r.Backoff < 0 {
			v.d.errorf(s.At("retry"), "step %q: retry.delay_ms and retry.backoff cannot be negative", s.ID)
		}
	}
	if s.Idempotent != nil && !*s.Idempotent && s.Attempts() > 1 {
		v.d.errorf(s.At("retry"), "step %q: idempotent: false means it never runs again on its own: remove retry", s.ID)
	}
	if s.OutputMaxLength < 0 {
		v.d.errorf(s.At("output_max_length"), "step %q: output_max_length cannot be negative", s.ID)
	}
	if s.OutputSchema != "" && !slices.Contains([]string{"json", "markdown", "text"}, s.OutputSchema) {
		v.d.errorf(s.At("output_schema"), "step %q: output_schema is json, markdown or text, not %q", s.ID, s.OutputSchema)
	}
	for dep, strat := range s.ContextStrategy {
		if !validStrategy(strat) {
			v.d.errorf(s.At("context_strategy"), "step %q: context_strategy %s: %q is not full, summarize or truncate:N", s.ID, dep, strat)
		}
	}
	v.stepTools(s)
	if s.MaxTokens < 0 || s.MaxTurns < 0 {
		v.d.errorf(s.Pos, "step %q: max_tokens and max_turns cannot be negative", s.ID)
	}
	v.guardrails(s)
}

func validStrategy(s string) bool {
	if s == "full" || s == "summarize" {
		return true
	}
	n, ok := strings.CutPrefix(s, "truncate:")
	if !ok {
		return false
	}
	i, err := strconv.Atoi(n)
	return err == nil && i > 0
}

// BuiltinTools are the tools an agent step may list, named and shaped as
// coding agents know them. WebFetch is not offered: chainrun makes no
// network promise to a model.
var BuiltinTools = []string{"Read", "Write", "Edit", "Glob", "Grep", "Bash"}

// Guardrail types (reference 004, plus json_schema).
var guardrailTypes = []string{"min_length", "max_length", "must_contain", "must_not_contain", "regex_match", "json_valid", "json_schema"}

func (v *validator) guardrails(s *Step) {
	for i, g := range s.Guardrails {
		at := s.At("guardrails")
		switch g.Type {
		case "min_length", "max_length":
			if n, ok := intValue(g.Value); !ok || n < 0 {
				v.d.errorf(at, "step %q: guardrail %s needs a whole number value", s.ID, g.Type)
			}
		case "must_contain", "must_not_contain":
			if str, ok := g.Value.(string); !ok || str == "" {
				v.d.errorf(at, "step %q: guardrail %s needs a text value", s.ID, g.Type)
			}
		case "regex_match":
			str, ok := g.Value.(string)
			if !ok {
				v.d.errorf(at, "step %q: guardrail regex_match needs a regular expression", s.ID)
				continue
			}
			re, err := regexp.Compile(str)
			if err != nil {
				v.d.errorf(at, "step %q: guardrail regex_match: %v", s.ID, err)
				continue
			}
			if s.compiled == nil {
				s.compiled = &Compiled{}
			}
			if s.compiled.Patterns == nil {
				s.compiled.Patterns = map[int]*regexp.Regexp{}
			}
			s.compiled.Patterns[i] = re
		case "json_valid":
		case "json_schema":
			sch, err := compileSchema(g.Value)
			if err != nil {
				v.d.errorf(at, "step %q: guardrail json_schema: %v", s.ID, err)
				continue
			}
			if s.compiled == nil {
				s.compiled = &Compiled{}
			}
			if s.compiled.Schemas == nil {
				s.compiled.Schemas = map[int]*jsonschema.Resolved{}
			}
			s.compiled.Schemas[i] = sch
		default:
			v.d.errorf(at, "step %q: unknown guardrail type %q%s; types are %s", s.ID, g.Type, didYouMean(g.Type, guardrailTypes), strings.Join(guardrailTypes, ", "))
		}
	}
}

func intValue(x any) (int, bool) {
	switch n := x.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case uint64:
		return int(n), true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

func (v *validator) outputVar(s *Step) {
	if s.OutputVar == "" {
		return
	}
	switch {
	case !IsIdentifier(s.OutputVar):
		v.d.errorf(s.At("output_var"), "step %q: output_var %q: a variable name is letters, digits and '_'", s.ID, s.OutputVar)
	case reservedVars[s.OutputVar]:
		v.d.errorf(s.At("output_var"), "step %q: output_var %q is reserved", s.ID, s.OutputVar)
	case v.produce[s.OutputVar] != nil:
		prev := v.produce[s.OutputVar]
		v.d.errorf(s.At("output_var"), "step %q: output_var %q is already the output of step %q (line %d)", s.ID, s.OutputVar, prev.ID, prev.Pos.Line)
	case s.Kind == KindHTTP && v.produce[s.OutputVar+"_status"] != nil:
		prev := v.produce[s.OutputVar+"_status"]
		v.d.errorf(s.At("output_var"), "step %q: an http step also sets %s_status, which is already the output of step %q (line %d)", s.ID, s.OutputVar, prev.ID, prev.Pos.Line)
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
				v.d.errorf(s.At("depends_on"), "step %q depends on itself", s.ID)
				ok = false
			case v.c.byID[dep] == nil:
				v.d.errorf(s.At("depends_on"), "step %q: depends_on names %q, which is not a step%s", s.ID, dep, didYouMean(dep, ids))
				ok = false
			}
		}
	}
	if !ok || len(v.d.errs()) > 0 {
		return false
	}
	g, err := dag.New(ids, func(id string) []string { return v.c.byID[id].DependsOn })
	if err != nil {
		var cyc *dag.CycleError[string]
		if errors.As(err, &cyc) {
			first := v.c.byID[cyc.Path[0]]
			v.d.errorf(first.At("depends_on"), "%s (each step depends on the next)", cyc.Error())
		} else {
			v.d.errorf(v.c.Pos, "%v", err)
		}
		return false
	}
	v.g = g
	return true
}

// Graph returns the dependency graph of a validated chain.
func (c *Chain) Graph() *dag.Graph[string] {
	g, err := dag.New(c.stepIDs(), func(id string) []string { return c.byID[id].DependsOn })
	if err != nil {
		panic("chain.Graph on an unvalidated chain: " + err.Error())
	}
	return g
}

func (c *Chain) stepIDs() []string {
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
	if v.produce[c.Output] == nil {
		var vars []string
		for name := range v.produce {
			vars = append(vars, name)
		}
		sort.Strings(vars)
		v.d.errorf(c.OutputPos, "output %q names no step's output_var%s", c.Output, didYouMean(c.Output, vars))
	}
}

// scope is what a step may read: inputs, the outputs of the steps it
// depends on, its pre_tools and its loop item.
type scope struct {
	v    *validator
	s    *Step
	self bool // the step's own output (early_exit_if)
}

// check returns "" when name is readable from the step, else why not.
func (sc scope) check(name string) string {
	if sc.s != nil && sc.v.toolSteps[sc.s] {
		return sc.v.toolCheck(name)
	}
	if sc.v.c.Workflow != nil {
		return sc.v.workflowCheck(sc.s, name)
	}
	s := sc.s
	if name == "input" {
		return ""
	}
	if name == "item" && s.ForEach != "" {
		return ""
	}
	for _, p := range s.PreTools {
		if p.InjectAs == name {
			return ""
		}
	}
	p := sc.v.produce[name]
	switch {
	case p == nil:
		return fmt.Sprintf("no input, step output_var or pre_tools inject_as is named %s", name)
	case p == s:
		if sc.self {
			return ""
		}
		return fmt.Sprintf("%s is this step's own output", name)
	case !sc.v.g.DependsOn(s.ID, p.ID):
		return fmt.Sprintf("%s is the output of step %q, which %q does not depend on (add it to depends_on)", name, p.ID, s.ID)
	}
	return ""
}

// has reports whether the step may read name.
func (sc scope) has(name string) bool {
	if sc.v.c.Workflow != nil && (sc.s == nil || !sc.v.toolSteps[sc.s]) {
		return sc.v.workflowHas(sc.s, name)
	}
	return sc.check(name) == ""
}

// ref validates one reference of a template.
func (v *validator) ref(s *Step, field string, r Ref) {
	sc := scope{v: v, s: s}
	if r.Name == "input" {
		if len(r.Path) == 0 {
			v.d.errorf(s.At(field), "step %q: %s: {input} needs an input name, as in {input.%s}", s.ID, field, firstInput(v.c))
			return
		}
		if v.c.Input(r.Path[0]) == nil {
			var names []string
			for _, in := range v.c.Inputs {
				names = append(names, in.Name)
			}
			v.unknown(s, field, r, fmt.Sprintf("no input is named %s%s", r.Path[0], didYouMean(r.Path[0], names)))
		}
		return
	}
	if why := sc.check(r.Name); why != "" {
		v.unknown(s, field, r, why)
	}
}

func firstInput(c *Chain) string {
	if len(c.Inputs) > 0 {
		return c.Inputs[0].Name
	}
	return "name"
}

func (v *validator) unknown(s *Step, field string, r Ref, why string) {
	if v.opts.LenientVariables && v.produce[r.Name] == nil && !v.wfVars[r.Name] && r.Name != "input" {
		v.d.warnf(s.At(field), "step %q: %s: %s stays literal: %s", s.ID, field, r.Raw, why)
		return
	}
	v.d.errorf(s.At(field), "step %q: %s: %s: %s", s.ID, field, r.Raw, why)
}

func (v *validator) template(s *Step, field, text string) *Template {
	if text == "" {
		return nil
	}
	t := ParseTemplate(text)
	for _, r := range t.Refs() {
		v.ref(s, field, r)
	}
	return t
}

func (v *validator) templates(s *Step, field string, m map[string]string) map[string]*Template {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]*Template, len(m))
	for k, text := range m {
		out[k] = v.template(s, field, text)
		if out[k] == nil {
			out[k] = ParseTemplate("")
		}
	}
	return out
}

func (v *validator) arg(s *Step, field, raw string) Arg {
	if strings.HasPrefix(raw, "$.") || strings.HasPrefix(raw, "$[") {
		p, err := jsonpath.Parse(raw)
		if err != nil {
			v.d.errorf(s.At(field), "step %q: %s: %q is not a valid JSONPath: %v", s.ID, field, raw, err)
			return Arg{Raw: raw}
		}
		if name, path := jsonPathHead(raw); name != "" {
			v.ref(s, field, Ref{Name: name, Path: path, Raw: raw})
		}
		return Arg{JSONPath: p, Raw: raw}
	}
	return Arg{Template: v.template(s, field, raw), Raw: raw}
}

// jsonPathHead returns the first one or two plain names of $.a.b...
var jsonPathHeadPattern = lazyRegexp(`^\$\.([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?`)

func jsonPathHead(p string) (string, []string) {
	m := jsonPathHeadPattern().FindStringSubmatch(p)
	if m == nil {
		return "", nil
	}
	if m[2] != "" {
		return m[1], []string{m[2]}
	}
	return m[1], nil
}

func (v *validator) expression(s *Step, field, src string, self, asBool bool) *Expression {
	if src == "" {
		return nil
	}
	sc := scope{v: v, s: s, self: self}
	e, err := compileExpression(src, sc.has, asBool)
	var unk *unknownNamesError
	if errors.As(err, &unk) {
		for _, name := range unk.names {
			v.d.errorf(s.At(field), "step %q: %s %q: %s", s.ID, field, src, sc.check(name))
		}
		return nil
	}
	if err != nil {
		v.d.errorf(s.At(field), "step %q: %s %q %v", s.ID, field, src, err)
		return nil
	}
	for _, f := range e.InputFields {
		if v.c.Input(f) == nil {
			v.d.errorf(s.At(field), "step %q: %s %q: no input is named %s%s", s.ID, field, src, f, didYouMean(f, v.inputNames()))
		}
	}
	return e
}

func (v *validator) inputNames() []string {
	var names []string
	for _, in := range v.c.Inputs {
		names = append(names, in.Name)
	}
	return names
}

// compile parses the step's templates and expressions, checking every
// reference against what the step can see.
func (v *validator) compile(s *Step) {
	if s.compiled == nil {
		s.compiled = &Compiled{}
	}
	c := s.compiled
	v.preTools(s)
	if s.ForEach != "" {
		v.forEach(s)
	}
	c.Prompt = v.template(s, "prompt", s.Prompt)
	c.System = v.template(s, "system", s.System)
	c.Command = v.template(s, "command", s.Command)
	c.Run = v.template(s, "run", s.Run)
	c.Cwd = v.template(s, "cwd", s.Cwd)
	c.URL = v.template(s, "url", s.URL)
	c.Body = v.template(s, "body", s.Body)
	c.Path = v.template(s, "path", s.Path)
	for _, a := range s.Args {
		c.Args = append(c.Args, v.arg(s, "args", a))
	}
	c.Env = v.templates(s, "env", s.Env)
	c.Headers = v.templates(s, "headers", s.Headers)
	c.With = v.templates(s, "with", s.With)
	c.Condition = v.expression(s, "condition", s.Condition, false, true)
	c.EarlyExitIf = v.expression(s, "early_exit_if", s.EarlyExitIf, true, true)
	c.Transform = v.expression(s, "expr", s.Expr, false, false)
	for dep := range s.ContextStrategy {
		if !slices.Contains(s.DependsOn, dep) && (v.produce[dep] == nil || !slices.Contains(s.DependsOn, v.produce[dep].ID)) {
			v.d.errorf(s.At("context_strategy"), "step %q: context_strategy names %q, which is neither a step it depends on nor the output_var of one", s.ID, dep)
		}
	}
}

func (v *validator) forEach(s *Step) {
	t := ParseTemplate(s.ForEach)
	refs := t.Refs()
	name := strings.TrimSpace(s.ForEach)
	if len(refs) == 1 && refs[0].Raw == name {
		v.ref(s, "for_each", refs[0])
		s.compiled.ForEach = t
		return
	}
	if IsIdentifier(name) {
		r := Ref{Name: name, Raw: name}
		v.ref(s, "for_each", r)
		s.compiled.ForEach = ParseTemplate("{" + name + "}")
		return
	}
	v.d.errorf(s.At("for_each"), "step %q: for_each names one list variable, as in for_each: \"{files}\"", s.ID)
}

func (v *validator) preTools(s *Step) {
	seen := map[string]bool{}
	for _, p := range s.PreTools {
		at := s.At("pre_tools")
		switch p.Type {
		case "shell", "cli":
			if p.Command == "" && p.Run == "" {
				v.d.errorf(at, "step %q: a %s pre_tool needs command or run", s.ID, p.Type)
			}
		case "http":
			if p.URL == "" {
				v.d.errorf(at, "step %q: an http pre_tool needs url", s.ID)
			}
		case "file":
			if p.Path == "" {
				v.d.errorf(at, "step %q: a file pre_tool needs path", s.ID)
			}
		default:
			v.d.errorf(at, "step %q: pre_tool type %q: use shell, http or file", s.ID, p.Type)
		}
		switch {
		case !IsIdentifier(p.InjectAs):
			v.d.errorf(at, "step %q: a pre_tool needs inject_as, the variable name its data is known by", s.ID)
		case seen[p.InjectAs] || v.produce[p.InjectAs] != nil || reservedVars[p.InjectAs]:
			v.d.errorf(at, "step %q: pre_tool inject_as %q is already a variable", s.ID, p.InjectAs)
		}
		seen[p.InjectAs] = true
		if p.OnError != "" && !slices.Contains([]string{"inject", "skip", "fail"}, p.OnError) {
			v.d.errorf(at, "step %q: pre_tool on_error is inject, skip or fail, not %q", s.ID, p.OnError)
		}
		cp := CompiledPreTool{
			Command: v.template(s, "pre_tools", p.Command),
			Run:     v.template(s, "pre_tools", p.Run),
			URL:     v.template(s, "pre_tools", p.URL),
			Path:    v.template(s, "pre_tools", p.Path),
			Headers: v.templates(s, "pre_tools", p.Headers),
		}
		for _, a := range p.Args {
			cp.Args = append(cp.Args, v.template(s, "pre_tools", a))
		}
		if s.compiled == nil {
			s.compiled = &Compiled{}
		}
		s.compiled.PreTools = append(s.compiled.PreTools, cp)
	}
}
