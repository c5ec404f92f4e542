package run

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// resolveWorkflowInputs turns --input text into the types a workflow's
// inputSchema declares, applies its defaults and validates the whole
// against it. It returns the inputs as text (for templates) and as typed
// values (for expressions and JSONPath). Every problem is reported at
// once, naming the input.
func resolveWorkflowInputs(c *chain.Chain, given map[string]string) (map[string]string, map[string]any, error) {
	w := c.Workflow
	if w.Schema == nil {
		text, err := ResolveInputs(c, given)
		return text, map[string]any{}, err
	}
	closed := false
	if ap, ok := w.InputSchema["additionalProperties"].(bool); ok && !ap {
		closed = true
	}
	var problems []string
	typed := map[string]any{}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		in := c.Input(k)
		if in == nil {
			if closed {
				problems = append(problems, fmt.Sprintf("unknown input %q (%s)", k, declaredInputs(c)))
				continue
			}
			typed[k] = given[k]
			continue
		}
		v, err := convertInput(given[k], in.Type)
		if err != nil {
			problems = append(problems, fmt.Sprintf("input %q: %v", k, err))
			continue
		}
		typed[k] = v
	}
	for _, in := range c.Inputs {
		if _, ok := typed[in.Name]; ok || in.Default != nil || in.Optional {
			continue
		}
		desc := ""
		if in.Description != "" {
			desc = " (" + in.Description + ")"
		}
		problems = append(problems, fmt.Sprintf("missing required input %q%s: pass --input %s=VALUE", in.Name, desc, in.Name))
	}
	if len(problems) == 0 {
		if err := w.Schema.ApplyDefaults(&typed); err != nil {
			problems = append(problems, "inputSchema defaults: "+err.Error())
		} else if err := w.Schema.Validate(typed); err != nil {
			problems = append(problems, "does not satisfy inputSchema: "+schemaMessage(err))
		}
	}
	if len(problems) > 0 {
		return nil, nil, &InputError{Chain: c.Name, Msg: strings.Join(problems, "; ")}
	}
	text := make(map[string]string, len(typed))
	for k, v := range typed {
		text[k] = textOf(v)
	}
	return text, typed, nil
}

func declaredInputs(c *chain.Chain) string {
	if len(c.Inputs) == 0 {
		return "it declares no inputs"
	}
	names := make([]string, len(c.Inputs))
	for i, in := range c.Inputs {
		names[i] = in.Name
	}
	return "its inputs are " + strings.Join(names, ", ")
}

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
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(msg, "validating root: ")
	msg = strings.ReplaceAll(msg, "validating /properties/", "input ")
	return msg
}
