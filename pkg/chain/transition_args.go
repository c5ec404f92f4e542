package chain

import (
	"fmt"
	"slices"
	"strings"

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
}

// Placeholder is the value a hint shows in the argument's place, to be
// replaced: <string>, <integer>, <a|b> for an enum. A value given as the
// placeholder itself is refused (IsPlaceholder): it was not filled in.
func (a NeededArg) Placeholder() string {
	if len(a.Enum) > 0 {
		words := make([]string, len(a.Enum))
		for i, e := range a.Enum {
			words[i] = textOfJSON(e)
		}
		return "<" + strings.Join(words, "|") + ">"
	}
	if a.Type != "" {
		return "<" + a.Type + ">"
	}
	return "<value>"
}

// IsPlaceholder reports whether v is the argument's placeholder as a
// hint shows it: a hint followed without filling it in.
func (a NeededArg) IsPlaceholder(v any) bool {
	s, ok := v.(string)
	return ok && s == a.Placeholder()
}

// Describe is the argument as a question or a list shows it: its type
// (or choices) and its description.
func (a NeededArg) Describe() string {
	var b strings.Builder
	switch {
	case len(a.Enum) > 0:
		words := make([]string, len(a.Enum))
		for i, e := range a.Enum {
			words[i] = textOfJSON(e)
		}
		fmt.Fprintf(&b, "one of %s", strings.Join(words, ", "))
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

// NeededArgs are the arguments the transition cannot be taken without,
// in the order its inputSchema requires them; nil when it needs none.
func (t *Transition) NeededArgs() []NeededArg { return t.needs }

// neededArgs reads sch (a transition's compiled inputSchema) for the
// arguments it requires that neither prefill nor a default gives.
func neededArgs(sch *jsonschema.Schema, prefill map[string]any) []NeededArg {
	var out []NeededArg
	for _, name := range sch.Required {
		if _, given := prefill[name]; given || slices.ContainsFunc(out, func(a NeededArg) bool { return a.Name == name }) {
			continue
		}
		a := NeededArg{Name: name}
		if p := sch.Properties[name]; p != nil {
			p = localRef(sch, p)
			if p.Default != nil || HasDefaults(p) {
				continue // its defaults are filled in before required is checked
			}
			a.Type, a.Enum, a.Description = typeOf(p), p.Enum, firstLine(p.Description)
			if a.Description == "" {
				a.Description = firstLine(p.Title)
			}
		}
		out = append(out, a)
	}
	return out
}

// ArgSchemaOf is the compiled schema one argument alone must satisfy (its
// property of the inputSchema, with the schema's definitions), so that a
// value can be checked as it is given, before the others; nil when the
// transition declares no such property.
func (t *Transition) ArgSchemaOf(name string) *jsonschema.Resolved { return t.argProps[name] }

// argPropSchemas compiles each property of raw (a transition's
// inputSchema) on its own, with raw's definitions; a property that does
// not compile alone is left out (the whole schema still checks it).
func argPropSchemas(raw map[string]any) map[string]*jsonschema.Resolved {
	props, _ := raw["properties"].(map[string]any)
	out := map[string]*jsonschema.Resolved{}
	for name, p := range props {
		one := map[string]any{"type": "object", "properties": map[string]any{name: p}}
		for _, k := range []string{"$defs", "definitions"} {
			if d, ok := raw[k]; ok {
				one[k] = d
			}
		}
		if _, rs, problem := resolveSchema(one); problem == "" {
			out[name] = rs
		}
	}
	return out
}
