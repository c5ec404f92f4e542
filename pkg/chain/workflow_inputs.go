package chain

import (
	"encoding/json"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/google/jsonschema-go/jsonschema"
)

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
		t.argTypes[name] = InputType(LocalRef(sch, p))
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

// LocalRef follows a property's $ref to a definition of the same schema
// (#/definitions/x or #/$defs/x), so its type is known.
func LocalRef(root, p *jsonschema.Schema) *jsonschema.Schema {
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

// InputType is the JSON type --input text is converted to: the declared
// type, or the first one of a list that is not null.
func InputType(p *jsonschema.Schema) string {
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

// InputText renders a decoded JSON value as --input would give it.
func InputText(d any) string {
	if s, ok := d.(string); ok {
		return s
	}
	b, _ := json.Marshal(d)
	return string(b)
}
