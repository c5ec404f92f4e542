package fileschema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/google/jsonschema-go/jsonschema"
)

// NeededArg is an argument a transition cannot be taken without: its
// inputSchema requires it and prefill does not give it (a required
// property's default is not applied: JSON Schema's defaults fill only
// optional ones).
// Every hint that offers the transition (a resume command, an MCP link,
// the terminal's question) names it, so that following the hint works.
type NeededArg struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Enum        []any  `json:"enum,omitempty"`
	Description string `json:"description,omitempty"`
	// Shape, for an object argument whose schema requires properties, is
	// the object a hint shows for it: each required property's
	// placeholder, a nested object's alike, so that the hint says what to
	// fill in rather than <object>.
	Shape map[string]any `json:"shape,omitempty"`
}

// Placeholder is the value a hint shows in the argument's place, to be
// replaced: <string>, <integer>, <a|b> for an enum, and for an object
// with required properties its Shape as JSON ({"name":"<string>"}). A
// value given with a placeholder left in it is refused (IsPlaceholder):
// it was not filled in.
func (a NeededArg) Placeholder() string {
	if a.Shape != nil {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(a.Shape)
		return strings.TrimSuffix(b.String(), "\n")
	}
	return placeholderOf(a.Type, a.Enum)
}

// PlaceholderValue is the placeholder as a JSON value: the Shape of an
// object, else the placeholder text (an MCP link's arguments).
func (a NeededArg) PlaceholderValue() any {
	if a.Shape != nil {
		return a.Shape
	}
	return a.Placeholder()
}

// placeholderOf is the placeholder of a value of type typ or one of enum.
func placeholderOf(typ string, enum []any) string {
	if len(enum) > 0 {
		words := make([]string, len(enum))
		for i, e := range enum {
			words[i] = InputText(e)
		}
		return "<" + strings.Join(words, "|") + ">"
	}
	if typ != "" {
		return "<" + typ + ">"
	}
	return "<value>"
}

// IsPlaceholder reports whether v is the argument's placeholder, or holds
// one of its Shape's placeholders where the Shape has it: a hint followed
// without filling it in. v is the value as given (text of --arg, JSON of
// an MCP client) or as converted.
func (a NeededArg) IsPlaceholder(v any) bool {
	if s, ok := v.(string); ok && s == a.Placeholder() {
		return true
	}
	return a.Shape != nil && leftIn(a.Shape, v)
}

// leftIn reports whether v holds, at some place of shape, the placeholder
// shape has there. Text is read as JSON first.
func leftIn(shape map[string]any, v any) bool {
	if s, ok := v.(string); ok {
		if json.Unmarshal([]byte(s), &v) != nil {
			return false
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, want := range shape {
		switch w := want.(type) {
		case map[string]any:
			if leftIn(w, m[k]) {
				return true
			}
		default:
			if m[k] == w {
				return true
			}
		}
	}
	return false
}

// shapeOf is the Shape of an object schema p that requires properties
// (nil otherwise), down to depth levels of nested objects.
func shapeOf(root, p *jsonschema.Schema, depth int) map[string]any {
	if depth == 0 || InputType(p) != "object" || len(p.Required) == 0 {
		return nil
	}
	out := map[string]any{}
	for _, name := range p.Required {
		q := p.Properties[name]
		if q == nil {
			out[name] = "<value>"
			continue
		}
		q = LocalRef(root, q)
		if nested := shapeOf(root, q, depth-1); nested != nil {
			out[name] = nested
		} else {
			out[name] = placeholderOf(InputType(q), q.Enum)
		}
	}
	return out
}

// Describe is the argument as a question or a list shows it: its type
// (or choices) and its description.
func (a NeededArg) Describe() string {
	var b strings.Builder
	switch {
	case len(a.Enum) > 0:
		words := make([]string, len(a.Enum))
		for i, e := range a.Enum {
			words[i] = InputText(e)
		}
		fmt.Fprintf(&b, "one of %s", strings.Join(words, ", "))
	case a.Shape != nil:
		b.WriteString("object, JSON like " + a.Placeholder())
	case a.Type != "":
		b.WriteString(a.Type)
	default:
		b.WriteString("any value")
	}
	if a.Description != "" {
		fmt.Fprintf(&b, ": %s", a.Description)
	}
	return b.String()
}

// NeededArgs reads sch (a transition's compiled inputSchema) for the
// arguments it requires that neither prefill nor a default gives.
func NeededArgs(sch *jsonschema.Schema, prefill map[string]any) []NeededArg {
	var out []NeededArg
	for _, name := range sch.Required {
		if _, given := prefill[name]; given || slices.ContainsFunc(out, func(a NeededArg) bool { return a.Name == name }) {
			continue
		}
		a := NeededArg{Name: name}
		if p := sch.Properties[name]; p != nil {
			p = LocalRef(sch, p)
			if p.Default != nil || HasDefaults(p) {
				continue // its defaults are filled in before required is checked
			}
			a.Type, a.Enum, a.Description = InputType(p), p.Enum, interp.FirstLine(p.Description)
			a.Shape = shapeOf(sch, p, 4)
			if a.Description == "" {
				a.Description = interp.FirstLine(p.Title)
			}
		}
		out = append(out, a)
	}
	return out
}

// PropSchemas compiles each property of raw (a transition's
// inputSchema) on its own, with raw's definitions; a property that does
// not compile alone is left out (the whole schema still checks it).
func PropSchemas(raw map[string]any) map[string]*jsonschema.Resolved {
	props, _ := raw["properties"].(map[string]any)
	out := map[string]*jsonschema.Resolved{}
	for name, p := range props {
		one := map[string]any{"type": "object", "properties": map[string]any{name: p}}
		for _, k := range []string{"$defs", "definitions"} {
			if d, ok := raw[k]; ok {
				one[k] = d
			}
		}
		if _, rs, problem := ResolveSchema(one); problem == "" {
			out[name] = rs
		}
	}
	return out
}
