package given

import (
	"slices"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestMismatch holds why a value a workflow step passes is not what the
// called workflow declares: its JSON type against a declared type, a
// value its enum does not list (a secret's unsaid), and none when it fits.
func TestMismatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   chain.Input
		v    any
		text string
		want string
	}{
		{"object for an array", chain.Input{Type: "array"}, map[string]any{"k": 1.0}, `{"k":1}`, "of type array, but it is given an object"},
		{"word for a number", chain.Input{Type: "number"}, "many", "many", "of type number, but it is given a string"},
		{"outside the enum", chain.Input{Enum: []string{"red", "blue"}}, "green", "green", `as one of red, blue, but it is given "green"`},
		{"secret outside the enum", chain.Input{Enum: []string{"k1"}, Secret: true}, "hunter2", "hunter2", "as one of k1, but it is given another value"},
		{"fits its type", chain.Input{Type: "integer"}, 3.0, "3", ""},
		{"in the enum", chain.Input{Enum: []string{"a", "b"}}, "b", "b", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if got := Mismatch(&in, tc.v, tc.text); got != tc.want {
				t.Errorf("Mismatch = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestUnknown holds the names passed that a workflow has no input of:
// sorted, and none for a workflow that declares no inputs at all.
func TestUnknown(t *testing.T) {
	declared := &chain.Chain{Workflow: &chain.Workflow{}, Inputs: []*chain.Input{{Name: "topic"}}}
	got := Unknown(declared, map[string]string{"zeta": "", "topic": "", "alpha": ""})
	if want := []string{"alpha", "zeta"}; !slices.Equal(got, want) {
		t.Errorf("Unknown = %q, want %q", got, want)
	}
	bare := &chain.Chain{Workflow: &chain.Workflow{}}
	if got := Unknown(bare, map[string]string{"anything": ""}); got != nil {
		t.Errorf("Unknown of a workflow declaring no inputs = %q, want none", got)
	}
	if !Undeclared(bare) || Undeclared(declared) {
		t.Errorf("Undeclared: bare %v, declared %v; want true, false", Undeclared(bare), Undeclared(declared))
	}
}
