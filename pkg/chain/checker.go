package chain

import (
	"strconv"

	"github.com/chainrun/chainrun/pkg/dag"
)

// Checker is what a kind's Check and Compile see of the validation of a
// chain: where they report what is wrong, how they compile a field's
// templates, expressions and arguments against what the step can see,
// and the chain and its graph around the step. A unit reaches the
// validator only through it, so a kind can be declared outside this
// package.
type Checker struct{ v *validator }

// Errorf reports an error at a place of the file: the chain does not load.
func (c Checker) Errorf(at Pos, format string, args ...any) { c.v.d.Errorf(at, format, args...) }

// Warnf reports a warning at a place of the file: the chain still loads.
func (c Checker) Warnf(at Pos, format string, args ...any) { c.v.d.Warnf(at, format, args...) }

// Subject is how messages name step s: step "id" in a DAG chain, or its
// place (a branch of a parallel step, a workflow state's executor).
func (c Checker) Subject(s *Step) string { return s.Subject() }

// Chain is the chain being checked.
func (c Checker) Chain() *Chain { return c.v.c }

// Graph is the graph of the chain's DAG steps by depends_on, or nil when
// the chain has none (a workflow) or its ids did not allow one.
func (c Checker) Graph() *dag.Graph[string] { return c.v.g }

// Produced is the step whose output variable is name, or nil.
func (c Checker) Produced(name string) *Step { return c.v.produce[name] }

// Template parses field's text and checks every reference in it against
// what step s can see; nil when text is empty.
func (c Checker) Template(s *Step, field, text string) *Template { return c.v.template(s, field, text) }

// Templates is Template for each value of a mapping (headers, with).
func (c Checker) Templates(s *Step, field string, m map[string]string) map[string]*Template {
	return c.v.templates(s, field, m)
}

// ShellScript is Template for a script a shell runs, refusing every
// reference a program inside it would run as code.
func (c Checker) ShellScript(s *Step, field, text string) *Template {
	return c.v.shellScript(s, field, text)
}

// Ref checks one reference of field against what step s can see.
func (c Checker) Ref(s *Step, field string, r Ref) { c.v.ref(s, field, r) }

// Expression compiles field's expression src, checking the names it
// reads; self lets it read the step's own output, asBool requires a
// condition.
func (c Checker) Expression(s *Step, field, src string, self, asBool bool) *Expression {
	return c.v.expression(s, field, src, self, asBool)
}

// Arg compiles one argument of field: a template, or a $.-path read as a
// value when the step runs.
func (c Checker) Arg(s *Step, field, raw string) Arg { return c.v.arg(s, field, raw) }

// EnvArgs compiles a step's env values (field env) as arguments.
func (c Checker) EnvArgs(s *Step, env map[string]string) map[string]Arg { return c.v.envArgs(s, env) }

// Mapped compiles a value whose $.-texts are read when the step runs,
// reporting a bad path at the field.
func (c Checker) Mapped(s *Step, field string, value any) *Mapped {
	m, err := compileMapped(value, s.fanned)
	if err != nil {
		c.Errorf(s.At(field), "%s: %s: %v", s.Subject(), field, err)
		return nil
	}
	return m
}

// Connection is the connection of the given kind that step s names, or
// nil, reported, when there is none.
func (c Checker) Connection(s *Step, kind string) *Connection { return c.v.connection(s, kind) }

// StepKind resolves and checks the kind of a step written inside another
// (a branch, a template, an executor), which must say it; false when the
// kind does not exist. name names the step in messages.
func (c Checker) StepKind(s *Step, name string) bool { return c.v.stepKind(s, name) }

// Compile compiles a step a unit holds (a branch, a template, a model
// step), as every step is compiled.
func (c Checker) Compile(s *Step) { c.v.compile(s) }

// NamesNothing says why r names no input, output, pre_tool or item of the
// file at all ("" when it names one).
func (c Checker) NamesNothing(s *Step, r *Ref) string { return c.v.namesNothing(s, r) }

// Unreadable says why step s cannot read name ("" when it can).
func (c Checker) Unreadable(s *Step, name string) string { return scope{v: c.v, s: s}.check(name) }

// CanRead reports whether step s can read name (self: its own output
// too, as its early_exit_if does).
func (c Checker) CanRead(s *Step, name string, self bool) bool {
	return scope{v: c.v, s: s, self: self}.has(name)
}

// ImplicitInput reads {input.x} of an input the file does not declare
// as a reading of loose references does (Reading.LooseRef): x becomes an
// input a run may give, with a warning (why: what it names not).
func (c Checker) ImplicitInput(s *Step, field string, r *Ref, why string) {
	c.v.implicitInput(s, field, r, why)
}

// WarnNothing warns that r, which names nothing (why), is read as the
// peer's resolver reads it: its fallback, else its own text.
func (c Checker) WarnNothing(s *Step, field string, r *Ref, why string) {
	c.v.warnNothing(s, field, r, why)
}

// Nest checks a step written inside another (a loop's step_template, a
// merge's or a debate's model calls), named label in messages and id in
// events.
func (v Checker) Nest(parent, n *Step, label, id string) {
	n.label, n.ID, n.owner, n.role, n.parent = label, id, parent.owner, parent.role, parent
	for _, f := range []string{"id", "depends_on", "early_exit_if", "output_var", "for_each"} {
		if _, set := n.FieldPos[f]; set {
			v.Errorf(n.At(f), "%s: %s does not apply here (the step runs inside %s)", label, f, parent.Subject())
		}
	}
	v.StepKind(n, label)
	for i, fb := range n.Fallbacks {
		v.Nest(parent, fb, label+" fallback "+strconv.Itoa(i+1), id)
	}
}

// Branch checks a step written inside a parallel step, named label in
// messages and id in events.
func (v Checker) Branch(parent, b *Step, label, id string) {
	b.label, b.ID, b.owner, b.role, b.parent = label, id, parent.owner, parent.role, parent
	for _, f := range []string{"id", "depends_on", "early_exit_if", "output_var"} {
		if _, set := b.FieldPos[f]; set {
			v.Errorf(b.At(f), "%s: %s does not apply to a branch (its result is one of the parallel step's branches)", label, f)
		}
	}
	v.StepKind(b, label)
	for i, fb := range b.Fallbacks {
		v.Branch(parent, fb, label+" fallback "+strconv.Itoa(i+1), id)
	}
}
