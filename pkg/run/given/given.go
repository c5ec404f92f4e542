package given

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/fileschema"
)

// Resolve is the one input resolver of every chain. A chain declares its
// inputs as a list (a DAG chain's inputs:, or a workflow's inputSchema,
// which loads as the same list plus the schema). --input text becomes the
// type declared for it; unknown names are refused unless the chain takes
// them (chain.InputsOpen: a schema that leaves its properties open, a
// workflows: file's workflow without a schema); required ones must be
// given; defaults apply; then the whole must satisfy the schema, if any.
// It returns the inputs as typed values (for expressions and JSONPath),
// or every problem at once, each naming its input (the caller masks them
// and says which chain).
//
// asGiven are the inputs a workflow step passes on as given (values not
// of the type the callee declares, warned of by the caller): those count
// as given, and while the rest is checked against the schema a value of
// the declared type stands in for each, so a required one is not
// "missing".
func Resolve(c *chain.Chain, given map[string]string, asGiven map[string]bool) (map[string]any, []string) {
	schema := inputSchema(c)
	// a workflow of a workflows: file without inputSchema takes any
	// input, as mcp-flowgate's does; a DAG chain, and a schema with
	// additionalProperties: false, refuse an unknown one
	closed := !c.InputsOpen()
	var problems []string
	typed := map[string]any{}
	given = givenNotEmpty(c, given)
	for _, k := range slices.Sorted(maps.Keys(given)) {
		in := c.Input(k)
		if in == nil {
			if closed {
				problems = append(problems, fmt.Sprintf("unknown input %q (%s)", k, Declared(c)))
			} else {
				typed[k] = given[k]
			}
			continue
		}
		v, err := convertGiven(c, given[k], in.Type)
		if err == nil {
			err = in.CheckRules(given[k])
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("input %q: %v", k, err))
			continue
		}
		if schema == nil {
			// a chain's typed input is checked, and kept as written
			v = given[k]
		}
		if schema == nil && len(in.Enum) > 0 && !slices.Contains(in.Enum, given[k]) {
			// a workflow's schema holds its enum; a chain's list, here
			problems = append(problems, fmt.Sprintf("input %q: %q is not one of %s", k, given[k], strings.Join(in.Enum, ", ")))
			continue
		}
		typed[k] = v
	}
	if schema != nil {
		// a workflow's schema defaults come first, required properties
		// and nested objects included (as mcp-flowgate fills them)
		fileschema.FillDefaults(schema.Schema(), typed)
	}
	for _, in := range c.Inputs {
		if _, ok := given[in.Name]; ok || asGiven[in.Name] {
			// given: converted above, or already reported as the wrong
			// type, which is not "missing"
			continue
		}
		if _, ok := typed[in.Name]; ok && schema != nil {
			continue // its schema's default
		}
		switch {
		case in.Default != nil && schema == nil:
			typed[in.Name] = *in.Default
		case in.Implicit(), c.Reading().GivenInputsOnly && in.Optional && schema == nil:
			// a file read as OCC's: nothing stands for an input not
			// given (OCC's executor sets only the inputs a run gives),
			// so {input.x} is absent: its fallback, else as written
		case in.Optional && schema == nil:
			typed[in.Name] = ""
		case in.Default != nil, in.Optional:
			// the schema's defaults apply below
		default:
			desc := ""
			if in.Description != "" {
				desc = " (" + in.Description + ")"
			}
			problems = append(problems, fmt.Sprintf("missing required input %q%s: pass --input %s=VALUE", in.Name, desc, in.Name))
		}
	}
	if len(problems) == 0 && schema != nil {
		if err := schema.ApplyDefaults(&typed); err != nil {
			problems = append(problems, "inputSchema defaults: "+err.Error())
		} else if err := schema.Validate(standIns(c, typed, asGiven)); err != nil {
			problems = append(problems, "does not satisfy inputSchema: "+SchemaMessage(err))
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return typed, nil
}

// standIns is typed with, for each input passed on as given, a value its
// declaration accepts (typed itself when there is none).
func standIns(c *chain.Chain, typed map[string]any, asGiven map[string]bool) map[string]any {
	if len(asGiven) == 0 {
		return typed
	}
	out := maps.Clone(typed)
	for k := range asGiven {
		if in := c.Input(k); in != nil {
			out[k] = standIn(in)
		}
	}
	return out
}

// standIn is a value the input accepts: its enum's first, else the empty
// value of its type.
func standIn(in *chain.Input) any {
	if len(in.Enum) > 0 {
		if v, err := Convert(in.Enum[0], in.Type); err == nil {
			return v
		}
	}
	switch in.Type {
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	case "number", "integer":
		return 0
	case "boolean":
		return false
	}
	return ""
}

// inputSchema is the JSON Schema a workflow's inputs must satisfy, nil for
// a chain whose input list says all.
func inputSchema(c *chain.Chain) *jsonschema.Resolved {
	if c.Workflow == nil {
		return nil
	}
	return c.Workflow.Schema
}

// Declared says which inputs c declares, for a message about one it
// does not.
func Declared(c *chain.Chain) string {
	if len(c.Inputs) == 0 {
		return "it declares no inputs"
	}
	names := make([]string, len(c.Inputs))
	for i, in := range c.Inputs {
		names[i] = in.Name
	}
	return "its inputs are " + strings.Join(names, ", ")
}

// Masked returns the inputs with every secret value replaced by ***: what
// a dry run shows of them.
func Masked(c *chain.Chain, inputs map[string]string) map[string]string {
	out := make(map[string]string, len(inputs))
	for k, v := range inputs {
		if in := c.Input(k); in != nil && in.Secret {
			v = "***"
		}
		out[k] = v
	}
	return out
}

// givenNotEmpty drops, where the chain's reading takes only the inputs
// given (chain.Reading.GivenInputsOnly: OCC's executor takes an empty
// value as not given), the declared inputs given as "", so their default
// applies and a required one is missing. chainrun's own format keeps ""
// as the value given.
func givenNotEmpty(c *chain.Chain, given map[string]string) map[string]string {
	if !c.Reading().GivenInputsOnly {
		return given
	}
	out := make(map[string]string, len(given))
	for k, v := range given {
		if v != "" || c.Input(k) == nil {
			out[k] = v
		}
	}
	return out
}
