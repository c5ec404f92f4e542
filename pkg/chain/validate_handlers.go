package chain

import "fmt"

// decidingKinds cannot be a handler's: a handler runs once the run has
// ended, so it decides no route, judges no step it could run again, and
// never pauses for a person.
var decidingKinds = map[Kind]bool{KindRouter: true, KindEvaluator: true, KindGate: true, KindHuman: true, KindWorkflow: true}

// handlers checks the steps of the chain's handlers as steps() checks the
// chain's own (ids unique across both, kinds, fields, output_vars), and
// what a handler step cannot have. It returns the steps sound enough to
// compile.
func (v *validator) handlers() []*Step {
	steps := v.c.HandlerSteps()
	if len(steps) == 0 {
		return nil
	}
	if p := v.produce["run"]; p != nil {
		v.d.Errorf(p.At("output_var"), "%s: output_var run is reserved in a chain with handlers: they read how the run ended as {run.status}", p.Subject())
	}
	var sound []*Step
	for _, s := range steps {
		if !ValidStepID(s.ID) {
			v.d.Errorf(s.At("id"), "%s: id %q: use letters, digits, '-' and '_'", s.Subject(), s.ID)
		}
		if prev, dup := v.c.byID[s.ID]; dup {
			v.d.Errorf(s.At("id"), "%s: id %q is already used by the step at line %d", s.Subject(), s.ID, prev.Pos.Line)
			continue
		}
		v.c.byID[s.ID] = s
		kind, known := kindOf(s.Type)
		if !known {
			v.d.Errorf(s.At("type"), "%s", unknownKind(s.Subject(), "type", s.Type, Kinds()))
			continue
		}
		s.Kind = kind
		if decidingKinds[kind] {
			v.d.Errorf(s.At("type"), "%s: a %s step cannot be a handler's: a handler runs once the run has ended, and decides or waits for nothing", s.Subject(), kind)
			continue
		}
		if len(s.DependsOn) > 0 {
			v.d.Errorf(s.At("depends_on"), "%s: depends_on: a handler runs once every step has finished, its steps in the order written; remove depends_on", s.Subject())
			s.DependsOn = nil
		}
		if s.EarlyExitIf != "" {
			v.d.Errorf(s.At("early_exit_if"), "%s: early_exit_if: the run has ended when a handler runs", s.Subject())
		}
		v.kindFields(s)
		v.outputVar(s)
		s.locals = append(s.locals, "run")
		sound = append(sound, s)
	}
	return sound
}

// handlerRead says why step s may not read name, the output of step p,
// when either is a handler's ("" when it may): a handler reads every
// output of the chain's steps and those of the steps before it in its
// own handler; no step of the chain reads a handler's.
func handlerRead(s, p *Step, name string) string {
	switch {
	case s.lifecycle == "":
		return fmt.Sprintf("%s is the output of %s, which runs after every step of the chain", name, p.Subject())
	case p.lifecycle == "":
		return ""
	case p.lifecycle == s.lifecycle && p.seq < s.seq:
		return ""
	}
	return fmt.Sprintf("%s is the output of %s, which has not run when %s runs (a handler reads the chain's outputs and those of the steps before it in its own handler)", name, p.Subject(), s.Subject())
}
