package text

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// A step's action is indented under it line by line; a script's blank
// lines stay blank and its final newline ends the block, with no line of
// spaces.
func TestPlanIndentsWithoutBlankPadding(t *testing.T) {
	for _, action := range []string{"echo one\necho two\n", "a\n\n\tb\n\n", "cat <<EOF\nx\nEOF\n", "single line"} {
		var b strings.Builder
		if err := Plan(&b, "c", []record.PlannedStep{{ID: "s", Kind: "cli", Wave: 1, Action: action}, {ID: "t", Kind: "cli", Wave: 2, Action: "echo t"}}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if m := regexp.MustCompile(`(?m)^.*[ \t]$`).FindAllString(out, -1); len(m) > 0 {
			t.Errorf("%q: lines ending in blanks %q in:\n%s", action, m, out)
		}
		for _, line := range strings.Split(strings.TrimRight(action, "\n"), "\n") {
			if line != "" && !strings.Contains(out, "\n  "+line+"\n") {
				t.Errorf("%q: line %q not shown indented:\n%s", action, line, out)
			}
		}
	}
}
