package chain

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A value inside a string that another program runs as code is refused at
// load, naming the program and the script line; the same value as data
// (an argument after the script, an environment variable, a plain word)
// is fine.
func TestShellScriptsNeverHandAValueToASecondParser(t *testing.T) {
	refused := map[string]string{ // script → the program named
		`sh -c 'echo hello {input.x}'`:                      "sh -c",
		`bash -c "echo {input.x}"`:                          "bash -c",
		`bash -lc 'echo {input.x}'`:                         "bash -c",
		`/bin/sh -ec "ls {input.x}"`:                        "sh -c",
		`eval "echo {input.x}"`:                             "eval",
		`eval echo {input.x}`:                               "eval",
		`ssh host 'ls {input.x}'`:                           "ssh",
		`ssh -p 22 -i key deploy@host ls {input.x}`:         "ssh",
		`docker exec web sh -c 'echo {input.x}'`:            "sh -c",
		`kubectl exec pod -- bash -c "echo {input.x}"`:      "bash -c",
		`sudo -u bob zsh -c 'echo {input.x}'`:               "zsh -c",
		`env A=1 python3 -c 'print("{input.x}")'`:           "python3 -c",
		`perl -e 'print "{input.x}"'`:                       "perl -e",
		`node -e "console.log('{input.x}')"`:                "node -e",
		`awk '{print "{input.x}"}' file`:                    "awk",
		`su -c 'id {input.x}' bob`:                          "su -c",
		`watch -n1 'echo {input.x}'`:                        "watch",
		`find . -name x -exec sh -c 'echo {input.x}' \;`:    "sh -c",
		`echo {input.x} | sh`:                               "sh (piped into)",
		`printf '%s\n' "{input.x}" | bash -s`:               "bash (piped into)",
		`echo "{input.x}" |` + "\n" + `  python3`:           "python3 (piped into)",
		"sh <<EOF\necho {input.x}\nEOF":                     "sh (its input)",
		"ssh host <<'EOF'\nrm {input.x}\nEOF":               "ssh (its input)",
		`bash <<< "echo {input.x}"`:                         "bash (its input)",
		`out=$(echo {input.x} | sh)`:                        "sh (piped into)",
		"echo ok\nif true; then sh -c \"rm {input.x}\"; fi": "sh -c",
	}
	for script, program := range refused {
		err := loadErr(t, script)
		if err == "" || !strings.Contains(err, "inside what "+program+" runs as code") || !strings.Contains(err, "{input.x}") {
			t.Errorf("%q: want a refusal naming %s, got %q", script, program, err)
		}
	}
	if err := loadErr(t, "echo ok\nsh -c 'echo {input.x}'"); !strings.Contains(err, "script line 2") {
		t.Errorf("the script line is not named: %q", err)
	}
	for _, script := range []string{
		`echo {input.x}`,
		`echo "value: {input.x}"`,
		`echo 'value: {input.x}'`,
		`sh -c 'echo "$1"' sh {input.x}`,
		`bash ./deploy.sh {input.x}`,
		`python3 tool.py --name {input.x}`,
		"cat <<'EOF'\nvalue={input.x}\nEOF",
		"cat <<EOF > conf\nvalue={input.x}\nEOF",
		"# sh -c '{input.x}' is how not to do it\necho ok",
		`echo $(( {input.x} + 1 ))`,
		`grep -c {input.x} file`,
		`echo {input.x} | tr a-z A-Z | sort`,
		`ssh host uptime > {input.x}`,
		`ssh host uptime 2>{input.x} </dev/null`,
	} {
		if err := loadErr(t, script); err != "" {
			t.Errorf("%q was refused: %s", script, err)
		}
	}
}

func loadErr(t *testing.T, script string) string {
	t.Helper()
	src := "name: t\ninputs: [x]\nsteps:\n  - id: s\n    type: cli\n    run: |\n      " + strings.ReplaceAll(script, "\n", "\n      ") + "\n"
	_, err := Parse("t.yaml", []byte(src), Options{})
	if err == nil {
		return ""
	}
	return err.Error()
}

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
