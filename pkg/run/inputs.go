package run

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/mask"
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
// inputs and applies defaults, returning them as text. Every problem is
// reported at once.
func ResolveInputs(c *chain.Chain, inputs map[string]string) (map[string]string, error) {
	text, _, err := resolveInputs(c, inputs)
	return text, err
}

// resolveInputs resolves the inputs given to a run of c (given.Resolve),
// returning them as text (for templates) and as typed values (for
// expressions and JSONPath).
func resolveInputs(c *chain.Chain, inputs map[string]string) (map[string]string, map[string]any, error) {
	return resolveInputsBeside(c, inputs, nil)
}

// resolveInputsBeside resolves given as resolveInputs does, beside the
// inputs a workflow step passes on as given (asGiven).
func resolveInputsBeside(c *chain.Chain, values map[string]string, asGiven map[string]bool) (map[string]string, map[string]any, error) {
	typed, problems := given.Resolve(c, values, asGiven)
	if len(problems) > 0 {
		// a message may quote a value: never a secret one
		msg := mask.New(mask.Secrets(c, values, nil)).Text(strings.Join(problems, "; "))
		return nil, nil, &InputError{Chain: c.Name, Msg: msg}
	}
	text := make(map[string]string, len(typed))
	for k, v := range typed {
		text[k] = TextOf(v)
	}
	return text, typed, nil
}

// inputValueNotes warns, where the chain's reading judges input values
// (chain.Reading.InputValue: OCC's), of each value it takes where
// chainrun's own format would refuse it.
func (x *Execution) inputValueNotes(values map[string]string) {
	if x.Chain.Reading().InputValue == nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		in := x.Chain.Input(k)
		if in == nil || values[k] == "" {
			continue
		}
		if err := chain.CheckInputValue(in.Type, values[k]); err != nil {
			x.Warn(fmt.Sprintf("input %q: %s, as OCC takes a %s, kept as given (chainrun's own format refuses it: %v)", k, x.Secrets.Text(fmt.Sprintf("%q is taken", values[k])), in.Type, x.Secrets.Text(err.Error())))
		}
	}
}
