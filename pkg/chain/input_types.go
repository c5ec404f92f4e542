package chain

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// InputTypes are the types a chain's input may declare (OCC writes
// inputs[].type): a value given for it that is not of its type is refused
// before anything runs, naming the input. string and path take any text.
var InputTypes = append([]string{"string", "number", "integer", "boolean", "url", "path", "array", "object"}, formInputTypes...)

// CheckInputValue reports why text is not a value of input type typ, nil
// when it is (or typ is empty or takes any text).
func CheckInputValue(typ, text string) error {
	t := strings.TrimSpace(text)
	switch typ {
	case "integer":
		if _, err := strconv.ParseInt(t, 10, 64); err != nil {
			return fmt.Errorf("%q is not an integer", text)
		}
	case "number":
		f, err := strconv.ParseFloat(t, 64)
		switch {
		case err == nil && (math.IsNaN(f) || math.IsInf(f, 0)), errors.Is(err, strconv.ErrRange):
			return fmt.Errorf("%q is not a number a run can hold: JSON has no NaN or infinity", text)
		case err != nil:
			return fmt.Errorf("%q is not a number", text)
		}
	case "boolean":
		if _, err := strconv.ParseBool(t); err != nil {
			return fmt.Errorf("%q is not true or false", text)
		}
	case "url":
		u, err := url.Parse(t)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return fmt.Errorf("%q is not an http or https URL (as https://example.com/page)", text)
		}
	case "json":
		if !json.Valid([]byte(t)) {
			return fmt.Errorf("%q is not JSON", text)
		}
	case "array", "object":
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return fmt.Errorf("an %s is written as JSON: %v", typ, err)
		}
		if _, isList := v.([]any); isList != (typ == "array") {
			return fmt.Errorf("%q is not a JSON %s", text, typ)
		}
	}
	return nil
}
