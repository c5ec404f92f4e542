package interp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The contexts the old scanner guessed wrong: a value inside $( ) inside
// "...", arithmetic, and heredoc bodies, run through a real sh.
func TestRenderShellContexts(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	tests := []struct {
		script, value, want, wantErr string
	}{
		{`echo "value: $(printf '%s|' {v})"`, "*", "value: *|\n", ""},
		{`echo "value: $(printf '%s|' {v})"`, "a  b", "value: a  b|\n", ""},
		{"echo \"`printf '%s|' {v}`\"", "a  b", "a  b|\n", ""},
		{`echo $(( {v} + 1 ))`, "5", "6\n", ""},
		{`echo $(( {v} * 2 ))`, " -21 ", "-42\n", ""},
		{`echo $(( {v} + 1 ))`, "a[$(touch PWNED)]", "", "must be an integer"},
		{`echo $(( {v} + 1 ))`, "1; touch PWNED", "", "must be an integer"},
		{`let n={v}+1; echo $n`, "x", "", "must be an integer"},
		{"cat <<'END'\nvalue={v}\nEND", `$(touch PWNED) "q" 'r'`, "value=$(touch PWNED) \"q\" 'r'\n", ""},
		{"cat <<'END'\nvalue={v}\nEND", "a\nEND\ntouch PWNED", "", "would end the heredoc"},
		{"cat <<-'END'\n\tvalue={v}\n\tEND", "a\n\tEND", "", "would end the heredoc"},
		{"cat <<END\nvalue={v}\nEND", `"hello" $(touch PWNED)`, "value=\"hello\" $(touch PWNED)\n", ""},
		{"cat <<END\nvalue={v}\nEND\necho after {v}", "x", "value=x\nafter x\n", ""},
		{`printf '%s' '{v}'`, "it's; touch PWNED", "it's; touch PWNED", ""},
		{`echo "${NOPE:-{v}}"`, "$(touch PWNED) x", "$(touch PWNED) x\n", ""},
		{`s=abcdef; echo "${s:{v}:2}"`, "a[$(touch PWNED)]", "", "must be an integer"},
	}
	for _, tt := range tests {
		out, env, err := ParseTemplate(tt.script).RenderShell(resolverOf(map[string]string{"v": tt.value}), false)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q with %q: err %v, want %q", tt.script, tt.value, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q with %q: %v", tt.script, tt.value, err)
			continue
		}
		cmd := exec.Command("sh", "-c", out)
		cmd.Dir, cmd.Env = dir, env
		got, err := cmd.CombinedOutput()
		if _, statErr := os.Stat(filepath.Join(dir, "PWNED")); statErr == nil {
			t.Fatalf("%q with %q ran the value (rendered %q)", tt.script, tt.value, out)
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("%q with %q: got %q (%v), want %q; rendered %q", tt.script, tt.value, got, err, tt.want, out)
		}
	}
}

// FuzzShellScan: no script makes the scanner panic, and it places every
// reference.
func FuzzShellScan(f *testing.F) {
	for _, s := range []string{"sh -c '{v}'", "cat <<'E'\n{v}\nE", "echo $(( {v} ))", "a=${x:-{v}} | sh", "echo \"$(printf {v})\"", "[[ {v} -eq 1 ]]", "<<<", "<<", "${", "$(("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		tmpl := ParseTemplate(script)
		if got, want := len(tmpl.shellSites()), len(tmpl.Refs()); got != want {
			t.Fatalf("%q: %d sites for %d references", script, got, want)
		}
		_ = tmpl.CheckShell()
	})
}
