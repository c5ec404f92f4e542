package chain

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"
)

// TestMain fails the package's tests when any of them wrote a shared zero
// part: a read accessor was used where own was needed, and every step
// without that part would read what was written.
func TestMain(m *testing.M) {
	code := m.Run()
	if written := zeroPartsWritten(); len(written) > 0 {
		fmt.Fprintf(os.Stderr, "zero parts written: %v\n", written)
		code = 1
	}
	os.Exit(code)
}

// TestStepHoldsOnlyItsParts: a step holds the parts its keys were
// written in, and a read of another kind's field reads zero without
// adding that kind's part.
func TestStepHoldsOnlyItsParts(t *testing.T) {
	l, err := Parse("parts.yaml", []byte(`name: parts
steps:
  - id: r
    type: router
    prompt: pick
    routes: {x: [c], y: [a]}
    default_route: x
  - id: c
    type: cli
    run: echo hi
    depends_on: [r]
  - id: a
    prompt: hello
    model: m
    depends_on: [r]
`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"c": {"CLIFields"},
		"a": {"AgentFields"},
		"r": {"AgentFields", "RouterFields"},
	}
	for _, s := range l.Chain.Steps {
		if s.Agent().Model != "" && s.ID == "c" {
			t.Errorf("a cli step reads a model")
		}
		var got []string
		for _, p := range s.parts {
			got = append(got, reflect.TypeOf(p).Elem().Name())
		}
		if fmt.Sprint(slices.Sorted(slices.Values(got))) != fmt.Sprint(want[s.ID]) {
			t.Errorf("step %s holds %v, want %v", s.ID, got, want[s.ID])
		}
	}
}

// keyValue is KeyValue, as this package's tests read the keys of kinds
// declared in other packages.
func keyValue(s *Step, key string) any { return KeyValue(s, key) }
