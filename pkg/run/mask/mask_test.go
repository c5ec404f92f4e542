package mask

import (
	"strings"
	"testing"
)

// A text cut short inside a secret (an error quoting the first 200 bytes
// of a body, a tail after "…") shows no part of it: the beginning before
// the cut mark, the end after it, in any form the masker knows.
func TestMaskerHidesASecretCutShort(t *testing.T) {
	const secret = `Zq9-SeCrEt-"77xy"`
	m := New([]string{secret})
	for _, text := range []string{
		"HTTP 500: xxxxx/Zq9-SeCrE…",
		"the answer \"Zq9-SeCrEt-\\\"7...\" names no route",
		"…rEt-\"77xy\" failed",
		"stderr: ...SeCrEt-\"77xy\"",
		"a: Zq9-S… b: …-\"77xy\"",
		"url: /Zq9-SeCrEt-%2277x…",
	} {
		got := m.Text(text)
		for _, part := range []string{"Zq9-S", "SeCr", "77xy", "rEt-"} {
			if strings.Contains(got, part) {
				t.Errorf("%q masked is %q: it shows %q", text, got, part)
			}
		}
	}
	for _, text := range []string{"Zq9 and more…", "…and more", "a 77 x…"} {
		if got := m.Text(text); got != text {
			t.Errorf("%q, cut short outside any secret, became %q", text, got)
		}
	}
}
