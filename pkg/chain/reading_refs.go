package chain

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds what the front-end's reading of loose references
// (Reading.LooseReferences, Reading.LooseRef: OCC mcp-server/src/utils.ts,
// resolveVariables) asks of the validator through Checker: whether a
// reference names anything, an input the file does not declare, and the
// warning for a reference left as written. How its value is found is
// Ref.resolved's.

// implicitInput reads {input.x} of an input the file does not declare
// as OCC does: x is an input a run may give (OCC passes every input it
// is given); when none is given, a chain's reference stays as written
// (resolveVariables) and a pipeline passes "" (mcp-server/src/
// pipeline-executor.ts, resolveInputMapping).
func (v *validator) implicitInput(s *Step, field string, r *Ref, why string) {
	name := r.Path[0]
	absent := "it stays as written"
	if s.piped {
		empty := ""
		r.Fallback = &empty
		absent = `the pipeline passes ""`
	}
	if in := v.c.Input(name); in != nil && in.implicit {
		return // declared, and said, at its first reference
	}
	v.c.Inputs = append(v.c.Inputs, &Input{Name: name, Optional: true, implicit: true, Pos: s.At(field),
		Description: "not declared: read by " + r.Raw})
	v.d.Warnf(s.At(field), "%s: %s: %s is read as %s reads it (%s): an input a run may give (--input %s=…), without which %s; a likely typo, which chainrun's own format refuses",
		s.Subject(), field, r.Raw, v.c.reads().Source, why, name, absent)
}

// warnNothing says that a reference naming nothing is read as the
// peer's resolver reads it: its fallback, else its own text.
func (v *validator) warnNothing(s *Step, field string, r *Ref, why string) {
	how := "is left as written, as " + v.c.reads().Source + " leaves it"
	if r.Fallback != nil {
		how = "gives its fallback " + strconv.Quote(*r.Fallback) + ", as " + v.c.reads().Source + " reads it"
	}
	v.d.Warnf(s.At(field), "%s: %s: %s %s (%s): a likely typo, which chainrun's own format refuses",
		s.Subject(), field, r.Raw, how, why)
}

// namesNothing says why r names no input, output, pre_tool or item of
// the file at all ("" when it names one): OCC resolves such a reference
// to nothing, ever.
func (v *validator) namesNothing(s *Step, r *Ref) string {
	if r.Name == "input" {
		switch {
		case len(r.Path) == 0 && !s.piped:
			// OCC's chain has no variable "input" (its pipeline has: the
			// inputs as JSON, pipelineRef)
			return "{input} names no input, as in {input.NAME}"
		case len(r.Path) == 1 && !v.hasInput(r.Path[0]):
			return "no input is named " + r.Path[0]
		}
		return ""
	}
	if v.produce[r.Name] != nil || v.c.Input(r.Name) != nil {
		return ""
	}
	why := scope{v: v, s: s}.check(r.Name)
	if !strings.HasPrefix(why, "no input, step output_var") {
		return ""
	}
	return why
}

// looseOutputName accepts, where the reading takes it
// (Reading.LooseOutputNames), an output_var (or a pipeline chain's id)
// that is not letters, digits and '_' (OCC's "static-analysis"), as the
// peer does: the chain's output may name it, and no {reference} can read
// it, in the peer as here, so a warning says so.
func (v *validator) looseOutputName(s *Step) {
	what := fmt.Sprintf("output_var %q", s.OutputVar)
	if s.piped {
		what = fmt.Sprintf("id %q", s.OutputVar)
	}
	v.d.Warnf(s.At("output_var"), "step %q: %s is not letters, digits and '_': as in %s, the output may name it and no {reference} can read it (chainrun's own format refuses it)",
		s.ID, what, v.c.reads().Source)
}
