package wfcheck

import (
	"encoding/json"
	"sort"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/fileschema"
)

// inputSchema compiles the workflow's inputSchema and derives the chain's
// inputs from its properties, so listing, completion and {input.x}
// checks treat both shapes alike.
func (v *checker) inputSchema() {
	c, w := v.c, v.c.Workflow
	if w.InputSchema == nil {
		return
	}
	pos := at(w, "inputSchema", c.Pos)
	if t, ok := w.InputSchema["type"]; ok && t != "object" {
		v.d.Errorf(pos, "inputSchema: the inputs are an object: type must be object, not %v", t)
		return
	}
	sch, rs, problem := fileschema.ResolveSchema(w.InputSchema)
	if problem != "" {
		name := "inputSchema"
		if w.InputsInContext {
			name = "inputs: their schema"
		}
		v.d.Errorf(pos, "%s %s", name, problem)
		return
	}
	w.Schema = rs
	required := map[string]bool{}
	for _, r := range sch.Required {
		required[r] = true
	}
	names := w.InputOrder()
	if len(names) != len(sch.Properties) {
		names = names[:0]
		for name := range sch.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
	}
	for _, name := range names {
		p := sch.Properties[name]
		if p == nil {
			continue
		}
		p = fileschema.LocalRef(sch, p)
		in := &chain.Input{Name: name, Description: p.Description, Optional: !required[name], Pos: pos, Type: fileschema.InputType(p)}
		if p.Default != nil {
			var d any
			if json.Unmarshal(p.Default, &d) == nil {
				text := fileschema.InputText(d)
				in.Default = &text
			}
		}
		if p.WriteOnly || fileschema.HoldsWriteOnly(p) {
			// a writeOnly part (cfg.password, a list's items) makes the
			// whole input secret: masked whole and each string and
			// number inside it, as any secret that is JSON is
			in.Secret = true
		}
		for _, e := range p.Enum {
			in.Enum = append(in.Enum, fileschema.InputText(e))
		}
		c.Inputs = append(c.Inputs, in)
	}
	for r := range required {
		if sch.Properties[r] == nil {
			v.d.Errorf(pos, "inputSchema: required input %q has no property", r)
		}
	}
}
