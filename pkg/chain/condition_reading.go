package chain

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
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
	return interp.FallbackExpression(src, names, func(env map[string]any) (bool, error) { return conditionHolds(t, env, rd.ConditionHolds) })
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

// conditionHolds fills in the references of a condition's text t from
// env (a name env lacks stays as written, as OCC leaves it) and judges
// the text with holds.
func conditionHolds(t *Template, env map[string]any, holds func(string) bool) (bool, error) {
	text, err := t.Render(func(r Ref) (string, bool, error) {
		v, ok := env[r.Name]
		for _, f := range r.Path {
			m, isMap := v.(map[string]any)
			if !ok || !isMap {
				return "", false, nil
			}
			v, ok = m[f]
		}
		if !ok {
			return "", false, nil
		}
		return conditionText(v), true, nil
	}, true)
	if err != nil {
		return false, err
	}
	return holds(text), nil
}

// conditionText is a variable's value as the text OCC compares.
func conditionText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case nil:
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
