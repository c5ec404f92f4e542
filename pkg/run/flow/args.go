package flow

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/fileschema"
	"github.com/chainrun/chainrun/pkg/guard"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/given"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// plainArgs is an error of decisionArgs in words of no command line: a
// model, a chain test's script and a person read it, none of whom gave
// --take.
func plainArgs(err error) string {
	if ae, ok := errors.AsType[*response.ArgError](err); ok {
		return ae.Plain()
	}
	return err.Error()
}

// decisionArgs checks a decision's arguments against its transition: the
// prefill first (its JSONPaths read in the run's context and input, as
// the decision is taken), the given ones over it (text converted to the
// declared type), then the inputSchema's defaults and rules.
func (f *flow) decisionArgs(t *chain.Transition, given map[string]any) (map[string]any, error) {
	f.hideWriteOnly(t, given)
	args := t.PrefillIn(f.pathDoc(nil, nil, nil))
	if args == nil {
		args = map[string]any{}
	}
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(given)) {
		v, err := argValue(t, k, given[k])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		args[k] = v
	}
	if rs := t.ArgSchema(); rs != nil && len(problems) == 0 {
		fileschema.FillDefaults(rs.Schema(), args)
		if err := rs.ApplyDefaults(&args); err != nil {
			problems = append(problems, "inputSchema defaults: "+err.Error())
		} else if err := rs.Validate(args); err != nil {
			problems = append(problems, "arguments do not satisfy the transition's inputSchema: "+
				strings.ReplaceAll(guard.SchemaProblem(err), "validating /properties/", "argument "))
		}
	}
	if len(problems) > 0 {
		return nil, &response.ArgError{Transition: t.Name, Msg: strings.Join(problems, "; ")}
	}
	return args, nil
}

// argValue is one given argument as the transition reads it: text
// converted to its declared type; a placeholder a hint showed for it (not
// filled in) is refused.
func argValue(t *chain.Transition, name string, v any) (any, error) {
	for _, a := range t.NeededArgs() {
		if a.Name != name || !a.IsPlaceholder(v) {
			continue
		}
		if a.Shape != nil {
			return nil, fmt.Errorf("argument %q still holds a placeholder of the hint's %s: give the values in their places", name, a.Placeholder())
		}
		return nil, fmt.Errorf("argument %q: %s is the hint's placeholder: give the value in its place", name, a.Placeholder())
	}
	text, ok := v.(string)
	if !ok || t.ArgType(name) == "" {
		return v, nil
	}
	conv, err := given.Convert(text, t.ArgType(name))
	if err != nil {
		return nil, fmt.Errorf("argument %q: %v", name, err)
	}
	return conv, nil
}

// checkArg checks one argument alone, as it is given: converted, then
// against its own property of the inputSchema. The whole set is checked
// once every argument is given (decisionArgs).
func checkArg(t *chain.Transition, name string, v any) error {
	v, err := argValue(t, name, v)
	if err != nil {
		return err
	}
	if rs := t.ArgSchemaOf(name); rs != nil {
		if err := rs.Validate(map[string]any{name: v}); err != nil {
			return errors.New(strings.ReplaceAll(guard.SchemaProblem(err), "validating /properties/", "argument "))
		}
	}
	return nil
}

// takeArgs sets the arguments of the --take decision, refusing arguments
// without one.
func (f *flow) takeArgs(given map[string]any) error {
	if f.take == "" {
		if len(given) > 0 {
			return &response.ArgError{Msg: "--arg and --args-file give the arguments of a decision: name it with --take"}
		}
		return nil
	}
	s := f.w.State(f.state)
	var t *chain.Transition
	if s != nil {
		t = s.Transition(f.take)
	}
	if t == nil {
		return nil // checkTake says what the state offers
	}
	args, err := f.decisionArgs(t, given)
	if err != nil {
		// a value typed into the wrong argument may be a secret input's,
		// and this error ends the command outside the events
		var ae *response.ArgError
		if errors.As(err, &ae) {
			ae.Msg = f.Mask(ae.Msg)
		}
		return err
	}
	f.useArgs(args)
	return nil
}

// useArgs makes a decision's arguments readable as $.arguments and, in
// conditions and templates, as arguments.
func (f *flow) useArgs(args map[string]any) {
	f.args = args
	if args == nil {
		f.Vars.Del("arguments")
		return
	}
	f.Vars.Set("arguments", interp.Value{Data: args})
}

// hideWriteOnly makes the given arguments whose property in the
// transition's inputSchema is writeOnly (or holds a writeOnly part)
// secrets of the run before anything checks, records or shows them: an
// error quoting one, the decision's event and the saved run show ***.
func (f *flow) hideWriteOnly(t *chain.Transition, given map[string]any) {
	if t.InputSchema == nil || len(given) == 0 {
		return
	}
	var values []string
	for _, name := range fileschema.WriteOnlyProperties(t.InputSchema) {
		switch v := given[name].(type) {
		case nil:
		case string:
			values = append(values, v)
		default:
			if b, err := json.Marshal(v); err == nil {
				values = append(values, string(b))
			}
		}
	}
	f.HideValues(values...)
}
