package compose

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/interp"
)

// TestOCCItems holds the ways an OCC loop reads its list: an array's
// elements, an object's values in the order written, a scalar as one
// item, lines, and a single line's comma-separated parts.
func TestOCCItems(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"array", `["x", 2, true]`, []string{"x", "2", "true"}},
		{"object values in order", `{"z": "last", "a": 1}`, []string{"last", "1"}},
		{"string scalar", `"one item, with a comma"`, []string{"one item, with a comma"}},
		{"number scalar", `42`, []string{"42"}},
		{"lines", "red\n\n blue \ngreen\n", []string{"red", "blue", "green"}},
		{"one line of commas", " a, b ,,c ", []string{"a", "b", "c"}},
		{"lines keep their commas", "a,b\nc", []string{"a,b", "c"}},
		{"empty", "  ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, v := range occItems(interp.TextValue(tc.text)) {
				got = append(got, v.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("occItems(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
