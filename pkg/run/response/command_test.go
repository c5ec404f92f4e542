package response

import (
	"os/exec"
	"strings"
	"testing"
)

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

// Every word of a printed command survives a shell as itself, whatever
// it holds.
func TestResumeCommandQuotesOddWords(t *testing.T) {
	odd := []string{"plain-1_2.3", "has space", "it's", "$(touch x)", "a;b", "-dash", "`x`", "*", "new\nline", "~user"}
	for _, w := range odd {
		line := ResumeCommand(w, w, w)
		out, err := exec.Command("sh", "-c", "printf '%s\\n' "+strings.TrimPrefix(line, "chainrun ")+" | tr '\\n' '|'").Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll("resume\n"+w+"\n--take\n"+w+"\n--rerun\n"+w+"\n", "\n", "|")
		if string(out) != want {
			t.Errorf("%q: the shell read %q, want %q", line, out, want)
		}
	}
}
