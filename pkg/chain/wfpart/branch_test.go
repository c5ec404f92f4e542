package wfpart

import "testing"

func TestBranchMatches(t *testing.T) {
	cases := []struct {
		op, when, result string
		want             bool
	}{
		{OpEquals, "tool-call", "tool-call", true},
		{OpEquals, "tool-call", "stop", false},
		{OpNotEquals, "error", "ok", true},
		{OpNotEquals, "error", "error", false},
		{OpContains, "fail", "api_failure", true},
		{OpContains, "fail", "ok", false},
		{OpNotContains, "ok", "error", true},
		{OpNotContains, "ok", "looks ok", false},
		{OpRange, "200,299", "201", true},
		{OpRange, "200,299", "200", true},
		{OpRange, "200,299", "299", true},
		{OpRange, "200,299", "300", false},
		{OpRange, "200,299", "abc", false},
		{OpRange, "-1.5,0.5", "0", true},
		{OpDefault, "", "anything", true},
	}
	for _, tc := range cases {
		b := &Branch{Operator: tc.op, When: tc.when}
		if tc.op == OpRange {
			var err error
			if b.lo, b.hi, err = ParseRange(tc.when); err != nil {
				t.Fatal(err)
			}
		}
		if got := b.Matches(tc.result); got != tc.want {
			t.Errorf("%s %q on %q = %v", tc.op, tc.when, tc.result, got)
		}
	}
}

func TestParseRangeErrors(t *testing.T) {
	for _, when := range []string{"", "200", "a,1", "1,b", "5,1"} {
		if _, _, err := ParseRange(when); err == nil {
			t.Errorf("%q parsed", when)
		}
	}
}

// FuzzBranch: any operator, when and result either parse and match
// without a panic, or are rejected by ParseRange.
func FuzzBranch(f *testing.F) {
	for _, seed := range [][3]string{{"range", "200,299", "201"}, {"contains", "fail", "api_failure"}, {"range", "-1e3,1e999", "NaN"}, {"equals", "", ""}} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, op, when, result string) {
		b := &Branch{Operator: op, When: when}
		if op == OpRange {
			lo, hi, err := ParseRange(when)
			if err != nil {
				return
			}
			if lo > hi {
				t.Fatalf("range %q parsed with min %v > max %v", when, lo, hi)
			}
			b.lo, b.hi = lo, hi
		}
		_ = b.Matches(result)
	})
}
