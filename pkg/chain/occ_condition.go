package chain

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
)

// occCondition is a condition (or early_exit_if) of an OCC file that
// chainrun's own format refuses (a bare word, a number compared with a
// quoted text, a name nothing produces): it is kept as OCC's condition
// evaluator reads it, with a warning naming why chainrun's format would
// have refused it.
func (v *validator) occCondition(s *Step, field, src string, why error) *Expression {
	t := interp.ParseSyntax(src, interp.Syntax{OCC: true})
	sc := scope{v: v, s: s, self: field == "early_exit_if"}
	seen := map[string]bool{}
	var names []string
	t.ReplaceRefs(func(r *Ref) (string, bool) {
		r.OCC = true
		if why := v.namesNothing(s, r); why != "" && r.Name == "input" && len(r.Path) == 1 {
			v.implicitInput(s, field, r, why)
		} else if why != "" {
			v.warnNothing(s, field, r, why)
			return "", false
		}
		v.occInputRef(s, field, r)
		if !seen[r.Name] && (r.Name == "input" || sc.has(r.Name)) {
			seen[r.Name] = true
			names = append(names, r.Name)
		}
		return "", false
	})
	v.d.Warnf(s.At(field), "%s: %s %q is read as OCC reads a condition (its {names} filled in, then == \"x\", != \"x\", contains \"x\", > N, < N compared as text, else true unless empty, false or 0); chainrun's own format would refuse it: %v",
		s.subject(), field, src, why)
	return interp.FallbackExpression(src, names, func(env map[string]any) (bool, error) { return occHolds(t, env) })
}

// bracedUnreadable reports whether err names a {reference} of src that
// names an output the step cannot read (of a step it does not depend
// on): that stays an error in an OCC file too, since its value would
// depend on timing. A {reference} that names nothing at all is OCC's
// literal text (occCondition warns of it), and so is a bare word.
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

// occHolds fills in the references of an OCC condition's text t from env
// (a name env lacks stays as written, as OCC leaves it) and judges the
// text.
func occHolds(t *Template, env map[string]any) (bool, error) {
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
	return OCCConditionHolds(text), nil
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

// OCCConditionHolds judges a filled-in condition as OCC's evaluator does
// (OCC c591dab mcp-server/src/utils.ts, evaluateCondition): left ==
// "x", left != "x" and left contains "x" compare text (the left side
// trimmed); left > N and left < N compare numbers, false when the left
// side is not one; any other text holds unless it is empty, false or 0
// once trimmed. Each form is tried in that order at its operator's first
// occurrence.
func OCCConditionHolds(text string) bool {
	t := strings.TrimSpace(text)
	if len(t) > 10000 {
		return false
	}
	quoted := func(s string) (string, bool) {
		if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) {
			return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`), true
		}
		return "", false
	}
	if i := strings.Index(t, "=="); i > 0 && strings.Index(t, "!=") != i-1 {
		left := strings.TrimSpace(t[:i])
		if right, ok := quoted(strings.TrimSpace(t[i+2:])); ok && left != "" {
			return left == right
		}
	}
	if i := strings.Index(t, "!="); i > 0 {
		left := strings.TrimSpace(t[:i])
		if right, ok := quoted(strings.TrimSpace(t[i+2:])); ok && left != "" {
			return left != right
		}
	}
	if i := strings.Index(t, ` contains "`); i >= 0 {
		if right, ok := strings.CutSuffix(t[i+len(` contains "`):], `"`); ok {
			return strings.Contains(strings.TrimSpace(t[:i]), right)
		}
	}
	for _, op := range []string{">", "<"} {
		i := strings.Index(t, op)
		if i <= 0 || strings.HasPrefix(t[i+1:], "=") {
			continue
		}
		rightText := strings.TrimSpace(t[i+1:])
		right, ok := jsNumber(rightText)
		if !ok || rightText == "" {
			continue
		}
		left, ok := jsNumber(t[:i])
		if !ok {
			return false
		}
		if op == ">" {
			return left > right
		}
		return left < right
	}
	return t != "" && t != "false" && t != "0"
}

// jsNumber reads text as JavaScript's Number() does: blank is 0, a 0x,
// 0o or 0b integer, a decimal (with exponent), or Infinity.
func jsNumber(text string) (float64, bool) {
	t := strings.TrimSpace(text)
	switch t {
	case "":
		return 0, true
	case "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if len(t) > 2 && t[0] == '0' && strings.ContainsRune("xXoObB", rune(t[1])) {
		n, err := strconv.ParseUint(t, 0, 64)
		return float64(n), err == nil && !strings.Contains(t, "_")
	}
	if strings.ContainsAny(t, "_xXpPnN") || strings.ContainsAny(strings.ToLower(t), "i") {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil
}
