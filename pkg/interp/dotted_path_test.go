package interp

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSelectDotted: the dotted dialect (OCC's) as json_extract and http_fetch's json_path
// both read it: dots, brackets, quoted names, * over a list, a leading $;
// and errors that name the part the data lacks.
func TestSelectDotted(t *testing.T) {
	var doc any
	json.Unmarshal([]byte(`{"data": {"items": [{"name": "first", "n": 1}, {"name": "second", "tags": ["a"]}], "0": "zero", "a.b": true},
		"results": [{"title": "x"}, {"title": "y"}]}`), &doc)
	for _, tc := range []struct{ path, want, err string }{
		{"data.items[1].name", `"second"`, ""},
		{"data.items.1.name", `"second"`, ""},
		{"$.data.items[0].n", `1`, ""},
		{"$data.items.0.n", `1`, ""},
		{"results.*.title", `["x","y"]`, ""},
		{"results[*].title", `["x","y"]`, ""},
		{"data.0", `"zero"`, ""},
		{"data['0']", `"zero"`, ""},
		{`data["a.b"]`, `true`, ""},
		{"", "", ""},
		{"data.nope", "", `no field "nope"`},
		{"data.items[2]", "", "no item 2 in a list of 2"},
		{"data.items.name", "", `"name" is not an index of a list of 2`},
		{"data.items['0']", "", `"0" is not an index of a list of 2`},
		{"data.items[0].name.more", "", `"more" is past the end of the data`},
		{"results.*.nope", "", `item 0: no field "nope"`},
		{"data.*", "", "* needs a list"},
		{"data.items[0", "", "an unclosed ["},
		{"data.items[x]", "", "[x] is neither an index nor a quoted name"},
	} {
		got, err := SelectDotted(doc, tc.path)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.path, err, tc.err)
			}
			continue
		}
		if tc.path == "" {
			if got == nil {
				t.Errorf("the empty path selects the whole document")
			}
			continue
		}
		data, _ := json.Marshal(got)
		if err != nil || string(data) != tc.want {
			t.Errorf("%s: %s %v, want %s", tc.path, data, err, tc.want)
		}
	}
}
