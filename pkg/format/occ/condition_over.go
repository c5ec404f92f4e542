package occ

import (
	"encoding/json"
	"strconv"

	"github.com/chainrun/chainrun/pkg/interp"
)

// conditionOver fills in the references of a condition's text t from
// env (a name env lacks stays as written, as OCC leaves it) and judges
// the text as OCC's evaluator does (ConditionHolds), for the expression
// readCondition keeps.
func conditionOver(t *interp.Template, env map[string]any) (bool, error) {
	text, err := t.Render(func(r interp.Ref) (string, bool, error) {
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
	return ConditionHolds(text), nil
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
