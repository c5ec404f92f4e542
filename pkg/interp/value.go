package interp

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Value is a variable: its text, and its structure when it has one (JSON
// output, a transform's result, a loop's list).
type Value struct {
	Text string
	Data any
	// JSON is true when the step that made it declared JSON output
	// (output_schema: json): a number or boolean text is then that value
	// in a transform, not a string.
	JSON bool
	// Absent marks the empty output of a step a router left out in a
	// file read as OCC's: OCC never sets its variable, so a reference of
	// that file reads it as absent (its fallback, else its own text),
	// where a step skipped by its condition is an empty value.
	Absent bool
}

// TextValue makes a Value of text, exposing fields when the text is a JSON
// object or array.
func TextValue(text string) Value {
	v := Value{Text: text}
	t := strings.TrimSpace(text)
	if t != "" && (t[0] == '{' || t[0] == '[') {
		var d any
		if json.Unmarshal([]byte(t), &d) == nil {
			v.Data = d
		}
	}
	return v
}

// DataValue makes a Value of structured data; its text is the JSON.
func DataValue(d any) Value {
	if s, ok := d.(string); ok {
		return Value{Text: s}
	}
	b, err := json.Marshal(d)
	if err != nil {
		return Value{Text: fmt.Sprint(d), Data: d}
	}
	return Value{Text: string(b), Data: d}
}

// Public is how the value appears in the JSON result and in a step's
// structured output: its data, else its text.
func (v Value) Public() any {
	if v.Data != nil {
		return v.Data
	}
	return v.Text
}

// Expr is the value as an expression reads it: its data, a JSON
// number or boolean text as that value (a condition reads any text that
// is one so), else its text.
func (v Value) Expr(condition bool) any {
	switch {
	case v.Data != nil:
		return v.Data
	case v.JSON:
		return ExprValue(v.Text)
	case condition:
		return ConditionValue(v.Text)
	}
	return v.Text
}
