package run

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/guard"
)

// convertInput reads --input text as the JSON Schema type declared for it.
func convertInput(text, typ string) (any, error) {
	switch typ {
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", text)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", text)
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", text)
		}
		return b, nil
	case "array", "object":
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("an %s is written as JSON: %v", typ, err)
		}
		return v, nil
	}
	return text, nil
}

// schemaMessage shortens a validation error to its first line, without
// the library's prefixes.
func schemaMessage(err error) string {
	return strings.ReplaceAll(guard.SchemaProblem(err), "validating /properties/", "input ")
}
