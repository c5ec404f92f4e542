package run

import (
	"fmt"
	"maps"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
)

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
