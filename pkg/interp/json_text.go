package interp

import (
	"encoding/json"
	"strconv"
)

// Walk follows field names and list indexes through decoded JSON.
func Walk(d any, path []string) (any, bool) {
	for _, p := range path {
		switch x := d.(type) {
		case map[string]any:
			v, ok := x[p]
			if !ok {
				return nil, false
			}
			d = v
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			d = x[i]
		default:
			return nil, false
		}
	}
	return d, true
}

// TextOf renders a JSON value as interpolation text: strings as they are,
// everything else as JSON.
func TextOf(d any) string {
	switch x := d.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, _ := json.Marshal(d)
	return string(b)
}
