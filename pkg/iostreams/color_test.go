package iostreams

import "testing"

// TestColorEnabled: NO_COLOR wins over all; CLICOLOR_FORCE and
// FORCE_COLOR paint where no terminal is; CLICOLOR=0 stops a terminal's
// colour; with none of them a terminal is painted and a pipe is not.
func TestColorEnabled(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{nil, true, true},
		{nil, false, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"NO_COLOR": ""}, true, true}, // empty is unset, as no-color.org says
		{map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false, false},
		{map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1"}, true, false},
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		{map[string]string{"CLICOLOR_FORCE": ""}, false, false},
		{map[string]string{"FORCE_COLOR": "1"}, false, true},
		{map[string]string{"FORCE_COLOR": ""}, false, true}, // set, even empty, forces (as Node.js reads it)
		{map[string]string{"FORCE_COLOR": "3"}, false, true},
		{map[string]string{"FORCE_COLOR": "0"}, false, false},
		{map[string]string{"FORCE_COLOR": "false"}, true, true},
		{map[string]string{"CLICOLOR": "0"}, true, false},
		{map[string]string{"CLICOLOR": "1"}, false, false},
		{map[string]string{"CLICOLOR": "0", "CLICOLOR_FORCE": "1"}, true, true},
		{map[string]string{"CLICOLOR": "0", "FORCE_COLOR": "1"}, false, true},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := ColorEnabled(lookup, tc.tty); got != tc.want {
			t.Errorf("%v, tty %v: %v, want %v", tc.env, tc.tty, got, tc.want)
		}
	}
}
