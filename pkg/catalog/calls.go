package catalog

import (
	"cmp"
	"errors"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// CallCheck checks the calls of one chain that loaded: its chain,
// workflow and script steps' callees (missing, given other inputs, or
// calling back into the chain), as a positioned *chain.ValidationError.
// cmd passes run.CheckCalls with its resolvers: this package runs
// nothing.
type CallCheck func(c *chain.Chain) error

// CheckCalls adds, to a file that loaded (l), the errors of its chains'
// calls as positioned findings: the first chain whose check fails says
// so. A file that did not load (err) gets its calls checked too when its
// only errors are references to names nothing produces: it is loaded
// again with those taken as text, and its call errors join the others in
// line order, so one validate says all that is wrong with it. Any other
// error of the file is returned as it is.
func CheckCalls(file string, l *chain.Loaded, err error, check CallCheck) error {
	if err != nil {
		return callsDespiteRefs(file, err, check)
	}
	if l == nil {
		return nil
	}
	for _, c := range l.Chains {
		if err := check(c); err != nil {
			return err
		}
	}
	return nil
}

// callsDespiteRefs adds to err, a file's validation errors, the errors of
// its calls, when the file loads once its unknown references are taken
// as text (they are then its only errors).
func callsDespiteRefs(file string, err error, check CallCheck) error {
	var ve *chain.ValidationError
	if !errors.As(err, &ve) || file == "" {
		return err
	}
	lenient, lerr := load.LoadFile(file, chain.Options{LenientVariables: true})
	if lerr != nil {
		return err
	}
	var calls *chain.ValidationError
	if !errors.As(CheckCalls("", lenient, nil, check), &calls) {
		return err
	}
	all := append(slices.Clone(ve.Diagnostics), calls.Diagnostics...)
	slices.SortStableFunc(all, func(a, b chain.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return &chain.ValidationError{Diagnostics: all}
}
