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
	json.Unmarshal([]byte(`{"data": {"items": [{"name": "first", "n": 1}, {"name": "second", "tags": ["a"]}], "0": "zero", "a.b": true, "it's": 1, "back\\slash": 2, "g": [{"t": ["x", "y"]}, {"t": ["z"]}]},
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
		{`data["it's"]`, `1`, ""},
		{`data.back\slash`, `2`, ""},
		{"data.g.*.t.*", `[["x","y"],["z"]]`, ""},
		{"data.g[*].t[1]", "", `item 1: no item 1 in a list of 1`},
		{"data.items.-1", "", "no item -1 in a list of 2"},
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

// FuzzSelectDotted: any path in OCC's dialect selects a value or says
// why not; it never panics, whatever its names hold.
func FuzzSelectDotted(f *testing.F) {
	for _, s := range []string{"a.b", "a[0]", "$.a.*.b", "a['x'].y", "\t.'", "a.\\", "*.*", "[[]]", "a.b.1.c"} {
		f.Add(s)
	}
	var doc any
	json.Unmarshal([]byte(`{"a":{"b":[1,{"c":2}],"x":{"y":3}}}`), &doc)
	f.Fuzz(func(t *testing.T, path string) {
		SelectDotted(doc, path)
	})
}
