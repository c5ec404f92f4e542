package chain

// This file reads the references of a pipeline's chain inputs (a
// front-end marks its steps, Step.Pipe) as
// OCC's pipeline executor does (OCC 162f041 mcp-server/src/
// pipeline-executor.ts, resolveInputMapping): {input} is the pipeline's
// inputs as one JSON object, {id.result} the chain's whole result ("" for
// an id no chain has), and {id.field} stays as written.

// pipelineRef reads r, a reference of a pipeline entry's inputs, when
// OCC's pipeline gives it a meaning of its own (done): text stands for it
// when lit.
func (v *validator) pipelineRef(s *Step, field string, r *Ref) (text string, lit, done bool) {
	switch {
	case r.Name == "input" && len(r.Path) == 0:
		r.AllInputs = true
		return "", false, true
	case r.Name != "input" && len(r.Path) == 1 && r.Path[0] == "result" && r.Fallback == nil && v.namesNothing(s, r) != "":
		v.d.Warnf(s.At(field), "%s: %s: %s is \"\", as %s's pipeline gives {ID.result} of an id no chain has: a likely typo, which chainrun's own format refuses",
			s.Subject(), field, r.Raw, v.c.reads().Source)
		return "", true, true
	case r.Name != "input" && len(r.Path) == 1 && r.Path[0] == "result":
		// the chain's whole result, whatever fields it holds
		r.Path = nil
	case r.Name != "input" && len(r.Path) > 0 && v.pipelineID(r.Name):
		v.d.Warnf(s.At(field), "%s: %s: %s is left as written, as %s's pipeline leaves a reference to a field of a chain's result (it reads {%s} or {%s.result})",
			s.Subject(), field, r.Raw, v.c.reads().Source, r.Name, r.Name)
		return r.Raw, true, true
	}
	return "", false, false
}

// pipelineID reports whether name is the id of one of the pipeline's
// chains.
func (v *validator) pipelineID(name string) bool {
	p := v.produce[name]
	return p != nil && p.piped
}
