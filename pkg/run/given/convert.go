package given

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
)

// Convert reads --input text (or a decision's --arg) as the JSON Schema
// type declared for it, so expressions and schemas see a number as a
// number.
func Convert(text, typ string) (any, error) {
	if err := chain.CheckInputValue(typ, text); err != nil {
		return nil, err
	}
	t := strings.TrimSpace(text)
	switch typ {
	case "integer":
		n, _ := strconv.ParseInt(t, 10, 64)
		return n, nil
	case "number":
		f, _ := strconv.ParseFloat(t, 64)
		return f, nil
	case "boolean":
		b, _ := strconv.ParseBool(t)
		return b, nil
	case "array", "object", "json":
		var v any
		_ = json.Unmarshal([]byte(text), &v)
		return v, nil
	}
	return text, nil
}

// convertGiven reads an input's value as its chain's file means it: in
// a file read as OCC's, as OCC's executor takes it (yes for a boolean,
// 0x1F for a number), kept as given; else as its declared type.
func convertGiven(c *chain.Chain, text, typ string) (any, error) {
	if judge := c.Reading().InputValue; judge != nil {
		return text, judge(typ, text)
	}
	return Convert(text, typ)
}

// SchemaMessage shortens a validation error to its first line, without
// the library's prefixes: the one wording of a schema's refusal, for
// inputs, arguments and a tool call's arguments alike.
func SchemaMessage(err error) string {
	return strings.ReplaceAll(guard.SchemaProblem(err), "validating /properties/", "input ")
}
