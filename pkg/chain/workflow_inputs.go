package chain

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema compiles the workflow's inputSchema and derives the chain's
// inputs from its properties, so listing, completion and {input.x}
// checks treat both shapes alike.
func (v *validator) inputSchema() {
	c, w := v.c, v.c.Workflow
	if w.InputSchema == nil {
		return
	}
	at := w.at("inputSchema", c.Pos)
	if t, ok := w.InputSchema["type"]; ok && t != "object" {
		v.d.Errorf(at, "inputSchema: the inputs are an object: type must be object, not %v", t)
		return
	}
	sch, rs, problem := ResolveSchema(w.InputSchema)
	if problem != "" {
		name := "inputSchema"
		if w.InputsInContext {
			name = "inputs: their schema"
		}
		v.d.Errorf(at, "%s %s", name, problem)
		return
	}
	w.Schema = rs
	required := map[string]bool{}
	for _, r := range sch.Required {
		required[r] = true
	}
	names := w.inputOrder
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
		p = localRef(sch, p)
		in := &Input{Name: name, Description: p.Description, Optional: !required[name], Pos: at, Type: typeOf(p)}
		if p.Default != nil {
			var d any
			if json.Unmarshal(p.Default, &d) == nil {
				text := textOfJSON(d)
				in.Default = &text
			}
		}
		if p.WriteOnly {
			in.Secret = true
		}
		for _, e := range p.Enum {
			in.Enum = append(in.Enum, textOfJSON(e))
		}
		c.Inputs = append(c.Inputs, in)
	}
	for r := range required {
		if sch.Properties[r] == nil {
			v.d.Errorf(at, "inputSchema: required input %q has no property", r)
		}
	}
}

// argSchema compiles a transition's inputSchema, the JSON Schema of the
// arguments a decision taking it gives.
func (v *validator) argSchema(t *Transition) {
	if t.InputSchema == nil {
		return
	}
	raw, _ := NormalizeYAML(t.InputSchema).(map[string]any)
	if bad := unknownSchemaTypes(raw); bad != "" {
		// reported, and the schema still read for the other checks
		v.d.Errorf(t.At("inputSchema"), "transition %q: inputSchema: %s", t.Name, bad)
	}
	sch, rs, problem := ResolveSchema(raw)
	if problem != "" {
		v.d.Errorf(t.At("inputSchema"), "transition %q: inputSchema %s", t.Name, problem)
		return
	}
	t.InputSchema, t.Prefill = raw, NormalizeYAML(t.Prefill).(map[string]any)
	t.args, t.argTypes = rs, map[string]string{}
	for name, p := range sch.Properties {
		t.argTypes[name] = typeOf(localRef(sch, p))
	}
	t.needs = neededArgs(sch, t.Prefill)
	t.argProps = argPropSchemas(raw)
}

// ResolveSchema compiles a JSON Schema written in a file; problem says
// why it is not one.
func ResolveSchema(raw map[string]any) (sch *jsonschema.Schema, rs *jsonschema.Resolved, problem string) {
	text, err := json.Marshal(raw)
	if err != nil {
		return nil, nil, err.Error()
	}
	sch = &jsonschema.Schema{}
	if err := json.Unmarshal(text, sch); err != nil {
		return nil, nil, "is not a valid JSON Schema: " + err.Error()
	}
	rs, err = sch.Resolve(nil)
	if err != nil {
		return nil, nil, "is not a valid JSON Schema: " + interp.FirstLine(err.Error())
	}
	return sch, rs, ""
}

// localRef follows a property's $ref to a definition of the same schema
// (#/definitions/x or #/$defs/x), so its type is known.
func localRef(root, p *jsonschema.Schema) *jsonschema.Schema {
	for range 8 {
		name, ok := strings.CutPrefix(p.Ref, "#/definitions/")
		defs := root.Definitions
		if !ok {
			if name, ok = strings.CutPrefix(p.Ref, "#/$defs/"); !ok {
				return p
			}
			defs = root.Defs
		}
		next := defs[name]
		if next == nil {
			return p
		}
		p = next
	}
	return p
}

// typeOf is the JSON type --input text is converted to: the declared
// type, or the first one of a list that is not null.
func typeOf(p *jsonschema.Schema) string {
	if p.Type != "" {
		return p.Type
	}
	for _, t := range p.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}

// textOfJSON renders a decoded JSON value as --input would give it.
func textOfJSON(d any) string {
	if s, ok := d.(string); ok {
		return s
	}
	b, _ := json.Marshal(d)
	return string(b)
}
