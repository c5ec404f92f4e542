package chain

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/theory/jsonpath"
)

// scope is what a step may read: inputs, the outputs of the steps it
// depends on, its pre_tools and its loop item.
type scope struct {
	v    *validator
	s    *Step
	self bool // the step's own output (early_exit_if)
}

// check returns "" when name is readable from the step, else why not.
func (sc scope) check(name string) string { return sc.why(name, true) }

// denied is what why answers, without its words, for a name the step may
// not read.
const denied = "-"

// why is check; with explain false it answers denied instead of the
// reason, as has needs no words (a large chain asks has for every name
// its references may mean).
func (sc scope) why(name string, explain bool) string {
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
	if name == "item" && s.ForEach != "" || s.fanned && (name == "item" || name == "branch") {
		return ""
	}
	// a step written inside another reads what that one reads: its
	// pre_tools, its locals and the outputs of the steps it depends on
	for in := s; in != nil; in = in.parent {
		if slices.Contains(in.locals, name) {
			return ""
		}
		for _, p := range in.PreTools {
			if p.InjectAs == name {
				return ""
			}
		}
		s = in
	}
	p := sc.v.produce[name]
	switch {
	case p == nil:
		if !explain {
			return denied
		}
		return fmt.Sprintf("no input, step output_var or pre_tools inject_as is named %s", name)
	case p == s:
		if sc.self {
			return ""
		}
		if !explain {
			return denied
		}
		return fmt.Sprintf("%s is this step's own output", name)
	case s.lifecycle != "" || p.lifecycle != "":
		return handlerRead(s, p, name)
	case sc.v.g != nil && !sc.v.g.DependsOn(s.ID, p.ID) && !s.lostDeps:
		if !explain {
			return denied
		}
		return fmt.Sprintf("%s is the output of step %q, which %q does not depend on (add it to depends_on)", name, p.ID, s.ID)
	}
	return ""
}

// has reports whether the step may read name.
func (sc scope) has(name string) bool {
	if sc.v.c.Workflow != nil && (sc.s == nil || !sc.v.toolSteps[sc.s]) {
		return sc.v.workflowHas(sc.s, name)
	}
	return sc.why(name, false) == ""
}

// ref validates one reference of a template.
func (v *validator) ref(s *Step, field string, r Ref) {
	sc := scope{v: v, s: s}
	if r.Name == "input" {
		if len(r.Path) == 0 && r.AllInputs {
			return
		}
		if len(r.Path) == 0 {
			v.d.Errorf(s.At(field), "%s: %s: {input} needs an input name, as in {input.%s}", s.Subject(), field, FirstInput(v.c))
			return
		}
		if !v.hasInput(r.Path[0]) {
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

// FirstInput is the name of the chain's first input, for examples in
// messages ("name" when it has none).
func FirstInput(c *Chain) string {
	if len(c.Inputs) > 0 {
		return c.Inputs[0].Name
	}
	return "name"
}

func (v *validator) unknown(s *Step, field string, r Ref, why string) {
	if v.opts.LenientVariables && v.produce[r.Name] == nil && !v.wfVars[r.Name] && r.Name != "input" {
		v.d.Warnf(s.At(field), "%s: %s: %s stays literal: %s", s.Subject(), field, r.Raw, why)
		return
	}
	v.d.Errorf(s.At(field), "%s: %s: %s: %s", s.Subject(), field, r.Raw, why)
}

func (v *validator) template(s *Step, field, text string) *Template {
	if text == "" {
		return nil
	}
	if v.c.reads().LooseReferences {
		return v.checkRefs(s, field, parseLooseTemplate(text))
	}
	return v.checkRefs(s, field, ParseTemplate(text))
}

// checkRefs reports the references of t that name nothing; where the
// reading takes them (Reading.LooseReferences), it reads them as the
// peer's resolver does (Reading.LooseRef).
func (v *validator) checkRefs(s *Step, field string, t *Template) *Template {
	t.ReplaceRefs(func(r *Ref) (string, bool) {
		if rd := v.c.reads(); rd.LooseReferences && rd.LooseRef != nil && field != "input_var" {
			// input_var names a variable, it is no template: OCC's
			// evaluator would judge "" for a name it lacks
			if text, lit := rd.LooseRef(Checker{v}, s, field, r); lit {
				return text, true
			}
		}
		v.bareInputRef(s, field, r)
		return "", false
	})
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

// envArgs compiles a step's env, each value read as an argument is: a
// template, or a JSONPath ($.context.x, as mcp-flowgate writes it).
func (v *validator) envArgs(s *Step, env map[string]string) map[string]Arg {
	if len(env) == 0 {
		return nil
	}
	out := make(map[string]Arg, len(env))
	for k, text := range env {
		a := v.arg(s, "env", text)
		if a.JSONPath == nil && a.Template == nil {
			a.Template = ParseTemplate("")
		}
		out[k] = a
	}
	return out
}

func (v *validator) arg(s *Step, field, raw string) Arg {
	if strings.HasPrefix(raw, "$.") || strings.HasPrefix(raw, "$[") {
		p, err := jsonpath.Parse(raw)
		if err != nil {
			v.d.Errorf(s.At(field), "%s: %s: %q is not a valid JSONPath: %v", s.Subject(), field, raw, err)
			return Arg{Raw: raw}
		}
		if in, ok := v.undeclaredInput(raw); ok {
			v.d.Warnf(s.At(field), "%s: %s: %s: %s", s.Subject(), field, raw, v.undeclaredInputNote(in, "it is passed as written, "+raw))
			return Arg{JSONPath: p, Raw: raw}
		}
		// $.workflow.input.x is mcp-flowgate's $.input.x
		if name, path := JSONPathHead(strings.Replace(raw, "$.workflow.input", "$.input", 1)); name != "" {
			v.ref(s, field, Ref{Name: name, Path: path, Raw: raw})
		}
		return Arg{JSONPath: p, Raw: raw}
	}
	return Arg{Template: v.template(s, field, raw), Raw: raw}
}

// headPattern is the first one or two plain names of $.a.b...
var headPattern = LazyRegexp(`^\$\.([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?`)

// JSONPathHead returns the first name of a path $.a.b… and the one below
// it, if any: what the path reads, for checks and for masking.
func JSONPathHead(p string) (string, []string) {
	m := headPattern().FindStringSubmatch(p)
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
	e, err := compileExpression(v.bareInputSource(s, field, src), sc.has, asBool)
	if read := v.c.reads().ReadCondition; err != nil && read != nil && (field == "condition" || field == "early_exit_if") {
		// the peer's condition evaluator reads any text (OCC's does):
		// chainrun's own format would refuse it, the peer's file means
		// the peer's reading
		if e, ok := read(Checker{v}, s, field, src, err); ok {
			return e
		}
	}
	var unk *unknownNamesError
	if errors.As(err, &unk) {
		for _, name := range unk.Names {
			v.d.Errorf(s.At(field), "%s: %s %q: %s", s.Subject(), field, src, sc.check(name))
		}
		return nil
	}
	if err != nil {
		v.d.Errorf(s.At(field), "%s: %s %q %v", s.Subject(), field, src, err)
		return nil
	}
	e.Source = src
	for _, f := range e.InputFields {
		if !v.hasInput(f) && v.c.reads().LooseReferences {
			v.implicitInput(s, field, &Ref{Name: "input", Path: []string{f}, Raw: "{input." + f + "}"}, "no input is named "+f)
			continue
		}
		if !v.hasInput(f) {
			v.d.Errorf(s.At(field), "%s: %s %q: no input is named %s%s", s.Subject(), field, src, f, didYouMean(f, v.inputNames()))
		}
	}
	return e
}

// hasInput reports whether the chain declares an input of that name, or
// its inputs could not be read (reported), so that no reference to one is
// judged.
func (v *validator) hasInput(name string) bool {
	return v.c.inputsUnread || v.c.Input(name) != nil
}

func (v *validator) inputNames() []string {
	var names []string
	for _, in := range v.c.Inputs {
		names = append(names, in.Name)
	}
	return names
}

// ParseRef reads a variable reference written without braces (input.x,
// results, results.list).
func ParseRef(name string) (Ref, bool) {
	refs := ParseTemplate("{" + name + "}").Refs()
	if len(refs) != 1 || refs[0].Raw != "{"+name+"}" {
		return Ref{}, false
	}
	return refs[0], true
}
