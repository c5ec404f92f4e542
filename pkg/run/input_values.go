package run

import (
	"fmt"
	"maps"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
)

// convertGiven reads an input's value as its chain's file means it: in
// a file read as OCC's, as OCC's executor takes it (yes for a boolean,
// 0x1F for a number), kept as given; else as its declared type.
func convertGiven(c *chain.Chain, text, typ string) (any, error) {
	if judge := c.Reading().InputValue; judge != nil {
		return text, judge(typ, text)
	}
	return ConvertInput(text, typ)
}

// inputValueNotes warns, where the chain's reading judges input values
// (chain.Reading.InputValue: OCC's), of each value it takes where
// chainrun's own format would refuse it.
func (x *Execution) inputValueNotes(given map[string]string) {
	if x.Chain.Reading().InputValue == nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(given)) {
		in := x.Chain.Input(k)
		if in == nil || given[k] == "" {
			continue
		}
		if err := chain.CheckInputValue(in.Type, given[k]); err != nil {
			x.Warn(fmt.Sprintf("input %q: %s, as OCC takes a %s, kept as given (chainrun's own format refuses it: %v)", k, x.Secrets.Text(fmt.Sprintf("%q is taken", given[k])), in.Type, x.Secrets.Text(err.Error())))
		}
	}
}
