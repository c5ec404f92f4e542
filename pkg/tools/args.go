package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// param is one argument of a tool. The same list gives the JSON Schema a
// model sees and the decoder its call goes through, so they cannot differ.
type param struct {
	name        string
	kind        string // "string" or "integer"
	required    bool
	description string
}

// values are a call's decoded arguments: a string or an int64 under each
// name the call gave (a null counts as not given).
type values map[string]any

func (v values) str(name string) string {
	s, _ := v[name].(string)
	return s
}

func (v values) int(name string) (int64, bool) {
	n, ok := v[name].(int64)
	return n, ok
}

// schemaOf builds the object schema of a parameter list, with the Go
// values encoding/json would decode the same schema into.
func schemaOf(params []param) map[string]any {
	props := map[string]any{}
	required := []any{}
	for _, p := range params {
		props[p.name] = map[string]any{"type": p.kind, "description": p.description}
		if p.required {
			required = append(required, p.name)
		}
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// decode checks a call's arguments against params: a JSON object (or
// nothing, which is an empty one), no unknown names, every required one
// present, each of its declared type. Messages name the argument so that
// the model can correct its call.
func decode(params []param, args json.RawMessage) (values, error) {
	raw := bytes.TrimSpace(args)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("the arguments must be a JSON object, not %s", clip(string(raw), 40))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("the arguments are not valid JSON: %v", err)
	}
	var unknown []string
	for name := range fields {
		if !slices.ContainsFunc(params, func(p param) bool { return p.name == name }) {
			unknown = append(unknown, strconv.Quote(name))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.name
		}
		return nil, fmt.Errorf("unknown argument %s (the arguments are %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	v := values{}
	for _, p := range params {
		f, ok := fields[p.name]
		if !ok || bytes.Equal(bytes.TrimSpace(f), []byte("null")) {
			if p.required {
				return nil, fmt.Errorf("missing required argument %q", p.name)
			}
			continue
		}
		var err error
		switch p.kind {
		case "string":
			var s string
			err = json.Unmarshal(f, &s)
			v[p.name] = s
		case "integer":
			v[p.name], err = integer(f)
		}
		if err != nil {
			return nil, fmt.Errorf("argument %q must be %s, not %s", p.name, article(p.kind), clip(string(bytes.TrimSpace(f)), 40))
		}
	}
	return v, nil
}

// integer reads a JSON number with no fractional part (3 and 3.0, not 3.5
// nor "3") that fits an int64.
func integer(f json.RawMessage) (int64, error) {
	s := string(bytes.TrimSpace(f))
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return 0, strconv.ErrSyntax
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) >= 1<<63 {
		return 0, strconv.ErrSyntax
	}
	return int64(x), nil
}

func article(kind string) string {
	if kind == "integer" {
		return "an integer"
	}
	return "a " + kind
}

// clip shortens s to about n bytes for a message, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
