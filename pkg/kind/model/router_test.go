package model

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestPickRoute: the whole answer names a route, else the route named
// earliest in it, else default_route.
func TestPickRoute(t *testing.T) {
	s := &chain.Step{}
	chain.Own[RouterFields](s).Routes = map[string][]string{"frontend": nil, "backend": nil, "fullstack": nil, "end": nil}
	for _, tc := range []struct{ answer, route, how string }{
		{"backend", "backend", "exact"},
		{"  **Backend**.\n", "backend", "exact"},
		{"It is a fullstack app, not just backend", "fullstack", "named in the answer"},
		{"frontend", "frontend", "exact"},
		{"the backend", "backend", "named in the answer"},
		{"none of these", "", ""},
	} {
		route, how, ok := PickRoute(s, tc.answer)
		if route != tc.route || how != tc.how || ok != (tc.route != "") {
			t.Errorf("PickRoute(%q) = %q, %q, %v; want %q, %q", tc.answer, route, how, ok, tc.route, tc.how)
		}
	}
	chain.Own[RouterFields](s).DefaultRoute = "fullstack"
	if route, how, _ := PickRoute(s, "dunno"); route != "fullstack" || how != "default_route" {
		t.Errorf("default: %q %q", route, how)
	}
	if got := Unselected(s, "backend"); len(got) != 0 {
		t.Errorf("Unselected = %v", got)
	}
	chain.Own[RouterFields](s).Routes = map[string][]string{"a": {"x", "y"}, "b": {"y", "z"}}
	if got := Unselected(s, "a"); !slices.Equal(got, []string{"z"}) {
		t.Errorf("Unselected(a) = %v", got)
	}
}
