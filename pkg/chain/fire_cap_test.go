package chain

import (
	"strings"
	"testing"
)

// TestFireCapLoads: max_fires_per_visit (mcp-flowgate's fire_cap.rs,
// commit 443aa7a) is a transition's key; a cap that bounds nothing as
// written is warned of, a value that is not a whole number refused.
func TestFireCapLoads(t *testing.T) {
	const head = "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        goal: g\n        transitions:\n          r: {target: a, max_fires_per_visit: "
	const tail = "}\n          f: {target: b}\n      b: {terminal: true}\n"
	for _, tc := range []struct{ value, warn, err string }{
		{"2", "", ""},
		{"0", `c.yaml:8:26: warning: transition "r": max_fires_per_visit 0: the transition can never fire`, ""},
		{"-1", `transition "r": max_fires_per_visit -1 is no cap`, ""},
		{"many", "", "c.yaml:8:47: state \"a\": transition \"r\": max_fires_per_visit: `many` is text here; a whole number is expected"},
	} {
		t.Run(tc.value, func(t *testing.T) { loadsOrRefuses(t, head+tc.value+tail, tc.err, tc.warn, "max_fires_per_visit") })
	}
}

// loadsOrRefuses parses src: with err set, it must be refused saying so;
// else it loads, its warnings holding warn, or (warn "") none that
// mentions topic.
func loadsOrRefuses(t *testing.T, src, err, warn, topic string) {
	t.Helper()
	l, got := Parse("c.yaml", []byte(src), Options{})
	if err != "" {
		if got == nil || !strings.Contains(got.Error(), err) {
			t.Fatalf("want %q, got %v", err, got)
		}
		return
	}
	if got != nil {
		t.Fatal(got)
	}
	var said []string
	for _, w := range l.Warnings {
		said = append(said, w.String())
	}
	if all := strings.Join(said, "\n"); warn == "" && strings.Contains(all, topic) || !strings.Contains(all, warn) {
		t.Errorf("warnings\n%s\nwant %q", all, warn)
	}
}
