package spell

import "testing"

// TestSuggestOnlyWhatIsClose holds did-you-mean to slips of a key or two:
// a suggestion that shares little with the name misleads more than none.
func TestSuggestOnlyWhatIsClose(t *testing.T) {
	cases := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"comand", []string{"command", "args"}, "command"},
		{"woh", []string{"who", "loud"}, "who"},             // a swap is one slip
		{"godo", []string{"good"}, "good"},                  // so is this one
		{"inptu", []string{"input", "input-file"}, "input"}, // a flag
		{"dependson", []string{"depends_on", "id"}, "depends_on"},
		{"max_paralel", []string{"max_parallel", "output"}, "max_parallel"},
		{"aa", []string{"a"}, "a"},
		{"foo", []string{"go", "deploy"}, ""}, // shares one letter with go
		{"zz", []string{"b"}, ""},
		{"x", []string{"y"}, ""},
		{"colour", []string{"command", "cwd"}, ""},
		{"environmnet", []string{"environment"}, "environment"},
		{"stauts", []string{"status"}, "status"},
	}
	for _, c := range cases {
		if got := Closest(c.name, c.candidates); got != c.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", c.name, c.candidates, got, c.want)
		}
	}
}
