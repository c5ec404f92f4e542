package run

import "testing"

// The command a printed hint begins with is chainrun as the user ran it:
// a path they typed stays that path (quoted for the shell), a name found
// on PATH stays its name, and what no one typed (a test binary, go run's
// temporary build) is plain chainrun.
func TestCommandName(t *testing.T) {
	for _, tc := range []struct{ argv0, want string }{
		{"chainrun", "chainrun"},
		{"./chainrun", "./chainrun"},
		{"bin/chainrun", "bin/chainrun"},
		{"/opt/tools/chainrun", "/opt/tools/chainrun"},
		{"../my build/chainrun", "'../my build/chainrun'"},
		{"chainrun-temporal", "chainrun-temporal"},
		{"./chainrun-temporal", "./chainrun-temporal"},
		{"/tmp/go-build123456/b001/exe/chainrun", "chainrun"},
		{"/tmp/go-build42/b001/cmd.test", "chainrun"},
		{"cmd.test", "chainrun"},
		{"", "chainrun"},
	} {
		if got := CommandName(tc.argv0); got != tc.want {
			t.Errorf("CommandName(%q) = %q, want %q", tc.argv0, got, tc.want)
		}
	}
}
