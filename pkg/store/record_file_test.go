package store

import (
	"strings"
	"testing"
)

// A run.json must name the run of its directory, with a status a run
// has; anything else is damage, said in words.
func TestReadRecord(t *testing.T) {
	for _, tc := range []struct{ data, err string }{
		{`{"run_id":"r1","name":"d","status":"failed"}`, ""},
		{`null`, "it names no run"},
		{`{}`, "it names no run"},
		{`{"run_id":"r2","name":"d","status":"failed"}`, `it names run "r2", not "r1"`},
		{`{"run_id":"../../x","name":"d","status":"failed"}`, `it names run "../../x"`},
		{`{"run_id":"r1","name":"d","status":"weird"}`, `status "weird" is none a run has`},
		{`{"run_id":"r1","name":"d"}`, `status "" is none a run has`},
		{`[1]`, "cannot unmarshal"},
	} {
		_, err := readRecord([]byte(tc.data), "r1")
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.data, err, tc.err)
		}
	}
}
