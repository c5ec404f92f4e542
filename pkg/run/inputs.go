package run

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// InputError is a missing, unknown or malformed input. Nothing ran.
type InputError struct {
	Chain string
	Msg   string
}

func (e *InputError) Error() string { return e.Chain + ": " + e.Msg }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *InputError) NothingRan() bool { return true }

// ResolveInputs checks the given values against the chain's declared
// inputs and applies defaults. Every problem is reported at once.
func ResolveInputs(c *chain.Chain, given map[string]string) (map[string]string, error) {
	out := map[string]string{}
	var problems []string
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	var declared []string
	for _, in := range c.Inputs {
		declared = append(declared, in.Name)
	}
	for _, k := range names {
		if c.Input(k) == nil {
			hint := "it declares no inputs"
			if len(declared) > 0 {
				hint = "its inputs are " + strings.Join(declared, ", ")
			}
			problems = append(problems, fmt.Sprintf("unknown input %q (%s)", k, hint))
			continue
		}
		out[k] = given[k]
	}
	for _, in := range c.Inputs {
		if _, ok := out[in.Name]; ok {
			continue
		}
		switch {
		case in.Default != nil:
			out[in.Name] = *in.Default
		case in.Optional:
			out[in.Name] = ""
		default:
			desc := ""
			if in.Description != "" {
				desc = " (" + in.Description + ")"
			}
			problems = append(problems, fmt.Sprintf("missing required input %q%s: pass --input %s=VALUE", in.Name, desc, in.Name))
		}
	}
	if len(problems) > 0 {
		return nil, &InputError{Chain: c.Name, Msg: strings.Join(problems, "; ")}
	}
	return out, nil
}

// Masked returns the inputs with every secret value replaced by ***.
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
