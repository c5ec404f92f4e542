package occ

import "testing"

// OCC b2bd570 mcp-server/tests/utils.test.ts, "evaluateCondition": every
// operator and edge case it pins, as an OCC file's condition holds once
// its {names} are filled in.
func TestOCCConditionUtils(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{`hello == "hello"`, true},               // equality
		{`hello == "world"`, false},              // non-matching equality
		{` == ""`, true},                         // empty string equality
		{`frontend == "frontend"`, true},         // spaces in value
		{`hello != "world"`, true},               // inequality
		{`hello != "hello"`, false},              // matching inequality
		{`some_value != ""`, true},               // not-empty check
		{` != ""`, true},                         // empty left side falls through to truthy
		{`hello world contains "world"`, true},   // contains
		{`hello world contains "xyz"`, false},    // not found
		{`anything contains ""`, true},           // empty contains
		{"10 > 5", true},                         // greater than
		{"3 > 5", false},                         //
		{"3 < 5", true},                          // less than
		{"10 < 5", false},                        //
		{"5 > 5", false},                         // equal is not greater
		{"hello", true},                          // non-empty string is truthy
		{"", false},                              // empty string is falsy
		{"false", false},                         //
		{"0", false},                             //
		{"   ", false},                           // whitespace-only is falsy
		{`hello world == "hello world"`, true},   // quoted strings with spaces
		{`  hello == "hello"  `, true},           // trims whitespace around
		{"8.5 > 7.2", true},                      // executor-utils.test.ts: floats
		{"3.14 < 3.15", true},                    //
		{`{name: "test"} contains "name"`, true}, // braces in the value
	}
	for _, tc := range cases {
		if got := ConditionHolds(tc.text); got != tc.want {
			t.Errorf("ConditionHolds(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
