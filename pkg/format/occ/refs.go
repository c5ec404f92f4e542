package occ

import "github.com/chainrun/chainrun/pkg/chain"

// This file reads a template's references as OCC's resolver does (OCC
// mcp-server/src/utils.ts, resolveVariables: the OCC reading's
// chain.Reading.LooseRef): a reference that names nothing stays as
// written (or gives its fallback), with a warning where chainrun's own
// format would refuse it; a pipeline's chain inputs read {input} and
// {id.result} as OCC's pipeline gives them.

// looseRef reads one reference of an OCC file's template. It marks r as
// the peer's and returns the text that stands for it, with lit true,
// when it names nothing (a likely typo, which chainrun's own format
// refuses): its fallback, else the reference as written.
func looseRef(v chain.Checker, s *chain.Step, field string, r *chain.Ref) (text string, lit bool) {
	r.Loose = true
	if s.Piped() {
		if text, lit, done := pipelineRef(v, s, field, r); done {
			return text, lit
		}
	}
	if r.Name == "input" && len(r.Path) == 1 {
		if in := v.Chain().Input(r.Path[0]); in != nil && in.Implicit() {
			v.ImplicitInput(s, field, r, "")
			return "", false
		}
	}
	if why := v.NamesNothing(s, r); why != "" {
		if r.Name == "input" && len(r.Path) == 1 {
			v.ImplicitInput(s, field, r, why)
			return "", false
		}
		v.WarnNothing(s, field, r, why)
		if r.Fallback != nil {
			return *r.Fallback, true
		}
		return r.Raw, true
	}
	return "", false
}

// pipelineRef reads r, a reference of a pipeline entry's inputs, when
// OCC's pipeline gives it a meaning of its own (done): text stands for it
// when lit. OCC 162f041 mcp-server/src/pipeline-executor.ts,
// resolveInputMapping: {input} is the pipeline's inputs as one JSON
// object, {id.result} the chain's whole result ("" for an id no chain
// has), and {id.field} stays as written.
func pipelineRef(v chain.Checker, s *chain.Step, field string, r *chain.Ref) (text string, lit, done bool) {
	switch {
	case r.Name == "input" && len(r.Path) == 0:
		r.AllInputs = true
		return "", false, true
	case r.Name != "input" && len(r.Path) == 1 && r.Path[0] == "result" && r.Fallback == nil && v.NamesNothing(s, r) != "":
		v.Warnf(s.At(field), "%s: %s: %s is \"\", as %s's pipeline gives {ID.result} of an id no chain has: a likely typo, which chainrun's own format refuses",
			s.Subject(), field, r.Raw, v.Chain().Reading().Source)
		return "", true, true
	case r.Name != "input" && len(r.Path) == 1 && r.Path[0] == "result":
		// the chain's whole result, whatever fields it holds
		r.Path = nil
	case r.Name != "input" && len(r.Path) > 0 && pipelineID(v, r.Name):
		v.Warnf(s.At(field), "%s: %s: %s is left as written, as %s's pipeline leaves a reference to a field of a chain's result (it reads {%s} or {%s.result})",
			s.Subject(), field, r.Raw, v.Chain().Reading().Source, r.Name, r.Name)
		return r.Raw, true, true
	}
	return "", false, false
}

// pipelineID reports whether name is the id of one of the pipeline's
// chains.
func pipelineID(v chain.Checker, name string) bool {
	p := v.Produced(name)
	return p != nil && p.Piped()
}
