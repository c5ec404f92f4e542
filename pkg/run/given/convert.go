package run

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/guard"
)

// convertInput reads --input text as the JSON Schema type declared for it.
func ConvertInput(text, typ string) (any, error) {
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

// SchemaMessage shortens a validation error to its first line, without
// the library's prefixes.
func SchemaMessage(err error) string {
	return strings.ReplaceAll(guard.SchemaProblem(err), "validating /properties/", "input ")
}
