package chain

import (
	"errors"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
)

// readingCondition is a condition (or early_exit_if) that chainrun's own
// format refuses (a bare word, a number compared with a quoted text, a
// name nothing produces), in a file whose reading judges such a
// condition (Reading.ConditionHolds, OCC's evaluator): it is kept as
// that reading judges it, with a warning naming why chainrun's format
// would have refused it.
func (v *validator) readingCondition(s *Step, field, src string, why error) *Expression {
	t := interp.ParseSyntax(src, interp.Syntax{Loose: true})
	sc := scope{v: v, s: s, self: field == "early_exit_if"}
	seen := map[string]bool{}
	var names []string
	t.ReplaceRefs(func(r *Ref) (string, bool) {
		r.Loose = true
		if why := v.namesNothing(s, r); why != "" && r.Name == "input" && len(r.Path) == 1 {
			v.implicitInput(s, field, r, why)
		} else if why != "" {
			v.warnNothing(s, field, r, why)
			return "", false
		}
		v.bareInputRef(s, field, r)
		if !seen[r.Name] && (r.Name == "input" || sc.has(r.Name)) {
			seen[r.Name] = true
			names = append(names, r.Name)
		}
		return "", false
	})
	rd := v.c.reads()
	v.d.Warnf(s.At(field), "%s: %s %q is read as %s reads a condition (%s); chainrun's own format would refuse it: %v",
		s.Subject(), field, src, rd.Source, rd.ConditionRule, why)
	return interp.FallbackExpression(src, names, func(env map[string]any) (bool, error) { return rd.ConditionHolds(t, env) })
}

// bracedUnreadable reports whether err names a {reference} of src that
// names an output the step cannot read (of a step it does not depend
// on): that stays an error in an OCC file too, since its value would
// depend on timing. A {reference} that names nothing at all is OCC's
// literal text (readingCondition warns of it), and so is a bare word.
func (v *validator) bracedUnreadable(s *Step, err error, src string) bool {
	var unk *interp.UnknownNamesError
	if !errors.As(err, &unk) {
		return false
	}
	for _, m := range interp.RefForm().FindAllStringSubmatch(src, -1) {
		head, _, _ := strings.Cut(m[2], ".")
		if slices.Contains(unk.Names, head) && v.namesNothing(s, &Ref{Name: head}) == "" {
			return true
		}
	}
	return false
}
