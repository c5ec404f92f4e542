package chain

import (
	"slices"
	"strings"
	"testing"
)

// TestRegisterOrder: units come out in Order whatever order they were
// registered in (each file's init registers its own), and every name a
// user writes for a kind, or an Order, is taken once.
func TestRegisterOrder(t *testing.T) {
	var r unitSet
	for _, u := range []Unit{
		{Kind: "c", Order: 30},
		{Kind: "a", Order: 10, Aliases: []Kind{"alpha"}},
		{Kind: "b", Order: 20},
	} {
		if err := r.add(u); err != nil {
			t.Fatal(err)
		}
	}
	var got []Kind
	for _, u := range r.read() {
		got = append(got, u.Kind)
	}
	if !slices.Equal(got, []Kind{"a", "b", "c"}) {
		t.Errorf("units in %v, want a, b, c", got)
	}
}

func TestRegisterRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		u    Unit
		want string
	}{
		{"kind taken", Unit{Kind: "a", Order: 40}, `"a" is already a kind`},
		{"kind is an alias", Unit{Kind: "alpha", Order: 40}, `"alpha" is already a kind`},
		{"alias is a kind", Unit{Kind: "d", Order: 40, Aliases: []Kind{"b"}}, `"b" is already a kind`},
		{"order taken", Unit{Kind: "d", Order: 20}, `order 20 is "b"'s`},
		{"no kind", Unit{Order: 40}, "a unit needs a Kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r unitSet
			for _, u := range []Unit{{Kind: "a", Order: 10, Aliases: []Kind{"alpha"}}, {Kind: "b", Order: 20}} {
				if err := r.add(u); err != nil {
					t.Fatal(err)
				}
			}
			err := r.add(tc.u)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("add(%+v) = %v, want %q", tc.u, err, tc.want)
			}
		})
	}
	// once read, the kinds are fixed: a late unit would be missing from
	// what was derived already
	var r unitSet
	r.read()
	if err := r.add(Unit{Kind: "late", Order: 10}); err == nil || !strings.Contains(err.Error(), "already read") {
		t.Errorf("add after read = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Register after the kinds were read did not panic")
		}
	}()
	Kinds()
	Register(Unit{Kind: "late", Order: 1})
}
