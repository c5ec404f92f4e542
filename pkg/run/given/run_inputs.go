package given

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
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
	text, _, err := ResolveTyped(c, inputs)
	return text, err
}

// ResolveTyped resolves the inputs given to a run of c (Resolve),
// returning them as text (for templates) and as typed values (for
// expressions and JSONPath).
func ResolveTyped(c *chain.Chain, inputs map[string]string) (map[string]string, map[string]any, error) {
	return ResolveInputsBeside(c, inputs, nil)
}

// ResolveInputsBeside resolves given as resolveInputs does, beside the
// inputs a workflow step passes on as given (asGiven).
func ResolveInputsBeside(c *chain.Chain, values map[string]string, asGiven map[string]bool) (map[string]string, map[string]any, error) {
	typed, problems := Resolve(c, values, asGiven)
	if len(problems) > 0 {
		// a message may quote a value: never a secret one
		msg := mask.New(mask.Secrets(c, values, nil)).Text(strings.Join(problems, "; "))
		return nil, nil, &InputError{Chain: c.Name, Msg: msg}
	}
	text := make(map[string]string, len(typed))
	for k, v := range typed {
		text[k] = interp.TextOf(v)
	}
	return text, typed, nil
}

// Grants checks --grant names against the tools a run of c can call (the
// built-in ones and the chain's own) and returns them as a set; nil when
// none is
func Grants(c *chain.Chain, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	for _, n := range names {
		if !slices.Contains(chain.BuiltinTools, n) && c.Tool(n) == nil {
			return nil, &InputError{Chain: c.Name, Msg: fmt.Sprintf("--grant %s: no such tool%s; tools are %s", n, chain.DidYouMean(n, Tools(c)), strings.Join(Tools(c), ", "))}
		}
		out[n] = true
	}
	return out, nil
}

// Tools are the tools an agent step of c can be granted: the built-in
// ones, then the chain's own (none for a nil chain).
func Tools(c *chain.Chain) []string {
	out := slices.Clone(chain.BuiltinTools)
	if c != nil {
		for _, t := range c.Tools {
			out = append(out, t.Name)
		}
	}
	return out
}
