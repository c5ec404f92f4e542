package fileschema

import (
	"encoding/json"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/google/jsonschema-go/jsonschema"
)

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
