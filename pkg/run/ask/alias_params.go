package ask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain/reqparams"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/spell"
)

// DecodeParams reads a model alias's params (config model_aliases) by the
// rules a step's params: follow — the same names, types and ranges — so
// that a parameter means one thing wherever it is set.
func DecodeParams(raw any) (llm.Params, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return llm.Params{}, fmt.Errorf("want a mapping of parameters (%s), not %v", strings.Join(paramNames(), ", "), raw)
	}
	names := paramNames()
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(names, k) {
			return llm.Params{}, fmt.Errorf("unknown parameter %q%s (params: %s)", k, spell.DidYouMean(k, names), strings.Join(names, ", "))
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return llm.Params{}, err
	}
	var p reqparams.Params
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return llm.Params{}, fmt.Errorf("%s: want %s, not %s", te.Field, te.Type, te.Value)
		}
		return llm.Params{}, err
	}
	if problems := p.Problems(); len(problems) > 0 {
		return llm.Params{}, errors.New(strings.Join(problems, "; "))
	}
	out := ParamsOf(&p)
	if p.MaxOutputTokens != nil {
		out.MaxOutputTokens = *p.MaxOutputTokens
	}
	return out, nil
}

// paramNames are the names params: takes, from RequestParams' tags.
func paramNames() []string {
	t := reflect.TypeFor[reqparams.Params]()
	out := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}
