package occ

import (
	"errors"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
)

// readCondition reads a condition (or early_exit_if) that chainrun's own
// format refuses (a bare word, a number compared with a quoted text, a
// name nothing produces) as OCC's evaluator does (the OCC reading's
// chain.Reading.ReadCondition): it is kept, judged by conditionOver, with
// a warning naming why chainrun's format would have refused it (why). A
// {reference} to an output the step cannot read stays refused (ok
// false).
func readCondition(v chain.Checker, s *chain.Step, field, src string, why error) (e *chain.Expression, ok bool) {
	if bracedUnreadable(v, s, why, src) {
		return nil, false
	}
	t := interp.ParseSyntax(src, interp.Syntax{Loose: true})
	self := field == "early_exit_if"
	seen := map[string]bool{}
	var names []string
	t.ReplaceRefs(func(r *chain.Ref) (string, bool) {
		r.Loose = true
		if why := v.NamesNothing(s, r); why != "" && r.Name == "input" && len(r.Path) == 1 {
			v.ImplicitInput(s, field, r, why)
		} else if why != "" {
			v.WarnNothing(s, field, r, why)
			return "", false
		}
		bareInputRef(v, s, field, r)
		if !seen[r.Name] && (r.Name == "input" || v.CanRead(s, r.Name, self)) {
			seen[r.Name] = true
			names = append(names, r.Name)
		}
		return "", false
	})
	v.Warnf(s.At(field), "%s: %s %q is read as %s reads a condition (%s); chainrun's own format would refuse it: %v",
		s.Subject(), field, src, v.Chain().Reading().Source, conditionRule, why)
	return interp.FallbackExpression(src, names, func(env map[string]any) (bool, error) { return conditionOver(t, env) }), true
}

// bracedUnreadable reports whether err names a {reference} of src that
// names an output the step cannot read (of a step it does not depend
// on): that stays an error in an OCC file too, since its value would
// depend on timing. A {reference} that names nothing at all is OCC's
// literal text (readCondition warns of it), and so is a bare word.
func bracedUnreadable(v chain.Checker, s *chain.Step, err error, src string) bool {
	var unk *interp.UnknownNamesError
	if !errors.As(err, &unk) {
		return false
	}
	for _, m := range interp.RefForm().FindAllStringSubmatch(src, -1) {
		head, _, _ := strings.Cut(m[2], ".")
		if slices.Contains(unk.Names, head) && v.NamesNothing(s, &chain.Ref{Name: head}) == "" {
			return true
		}
	}
	return false
}
