package compose

import (
	"encoding/json"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
)

// occItems are the items of an OCC loop's list as OCC reads them: a JSON
// array's elements; a JSON object's values, in the order written; a JSON
// string, number or boolean as the one item; else one item per non-empty
// line, or, for a single line, per comma-separated part.
func occItems(v interp.Value) []interp.Value {
	if _, list := v.Data.([]any); !list {
		if vals, ok := jsonItems(v.Text); ok {
			return vals
		}
	}
	sep := "\n"
	if !strings.Contains(strings.TrimSpace(v.Text), "\n") {
		sep = ","
	}
	return run.SplitItems(v, sep)
}

// jsonItems are the items of text that is a JSON object (its values, in
// the order written) or a JSON string, number or boolean (the one
// value), as OCC's loop reads them.
func jsonItems(text string) ([]interp.Value, bool) {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, false
	}
	if t[0] != '{' {
		var scalar any
		if err := json.Unmarshal([]byte(t), &scalar); err != nil || scalar == nil {
			return nil, false
		}
		if _, isList := scalar.([]any); isList {
			return nil, false
		}
		return []interp.Value{interp.DataValue(scalar)}, true
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []interp.Value
	for dec.More() {
		if _, err := dec.Token(); err != nil {
			return nil, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		var e any
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, false
		}
		out = append(out, interp.DataValue(e))
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		return nil, false
	}
	return out, true
}
