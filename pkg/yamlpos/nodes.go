package yamlpos

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// BadText finds the first NUL byte or invalid UTF-8 sequence of a file,
// with its position (the YAML library reports these without one).
func BadText(data []byte) (Pos, string, bool) {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return Pos{Line: line, Col: col}, fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", data[i]), true
		case r == 0:
			return Pos{Line: line, Col: col}, "a NUL byte", true
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		i += size
	}
	return Pos{}, "", false
}

// DecodeInto decodes a node into dst, reporting type errors with their
// position; they stop no other check (what was read is kept). It reports
// whether decoding succeeded.
func DecodeInto(d *Diags, n *yaml.Node, dst any) bool {
	return DecodeValue(d, n, dst, "")
}

// DecodeValue decodes a node into dst as decodeInto does, but a value of
// the wrong type stops no other check (typeError); label names the field.
func DecodeValue(d *Diags, n *yaml.Node, dst any, label string) bool {
	if err := n.Load(dst, yaml.WithKnownFields()); err != nil {
		d.TypeError(err, n, label)
		return false
	}
	return true
}

// Of is the position of node n, for a message about it.
func Of(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

// KeyNode is the key node of key in mapping m, or nil.
func KeyNode(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// ValueOf is the value of key in mapping m, or nil.
func ValueOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// AsJSONText turns a mapping or list node (nil or a scalar: nothing)
// into a text node holding its JSON, at the same place: a value a format
// keeps as JSON text that its author may write as YAML.
func AsJSONText(n *yaml.Node) {
	if n == nil || (n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode) {
		return
	}
	var v any
	if n.Decode(&v) != nil {
		return
	}
	text, err := json.Marshal(v)
	if err != nil {
		return
	}
	*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(text), Line: n.Line, Column: n.Column}
}

// EachItem calls fn with each mapping of a list (v dereferenced), and its
// index: a v that is no list is reported as notList, an item that is no
// mapping as notMapping, at their places. It reports whether v is a list.
func EachItem(d *Diags, v *yaml.Node, notList, notMapping string, fn func(i int, n *yaml.Node)) bool {
	v = Deref(v)
	if v.Kind != yaml.SequenceNode {
		d.Errorf(Of(v), "%s", notList)
		return false
	}
	for i, n := range v.Content {
		n = Deref(n)
		if n.Kind != yaml.MappingNode {
			d.Errorf(Of(n), "%s", notMapping)
			continue
		}
		fn(i, n)
	}
	return true
}

// IDSuffix names an item of a list (a step, a pipeline's chain) in a
// message about a field of it, when it has an id to name: ` "id"`.
func IDSuffix(item *yaml.Node) string {
	if v := ValueOf(item, "id"); v != nil && v.Kind == yaml.ScalarNode {
		return " " + fmt.Sprintf("%q", v.Value)
	}
	return ""
}
