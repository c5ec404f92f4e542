package run

import (
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// secretValues are the values of inputs declared secret: true, with those
// a calling chain already hides (a secret passed down stays secret).
func secretValues(c *chain.Chain, inputs map[string]string, inherited []string) []string {
	values := append([]string(nil), inherited...)
	for _, in := range c.Inputs {
		if v := inputs[in.Name]; in.Secret && v != "" {
			values = append(values, v)
		}
	}
	return values
}

// secretReplacer masks secret values, longest first, so that a run's
// errors, events and result never show them.
func secretReplacer(values []string) *strings.Replacer {
	if len(values) == 0 {
		return nil
	}
	values = append([]string(nil), values...)
	sort.Slice(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	pairs := make([]string, 0, 2*len(values))
	for _, v := range values {
		pairs = append(pairs, v, "***")
	}
	return strings.NewReplacer(pairs...)
}

// mask hides secret values in text shown outside the run.
func (x *execution) mask(s string) string {
	if x.secrets == nil || s == "" {
		return s
	}
	return x.secrets.Replace(s)
}

// maskResult hides secret values in the result's error and variables.
func (x *execution) maskResult(res *Result) {
	if x.secrets == nil {
		return
	}
	res.Error = x.mask(res.Error)
	for k, v := range res.Vars {
		res.Vars[k] = x.maskValue(v)
	}
	res.Output = x.maskValue(res.Output)
}

func (x *execution) maskValue(v any) any {
	switch t := v.(type) {
	case string:
		return x.mask(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = x.maskValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = x.maskValue(e)
		}
		return out
	}
	return v
}
