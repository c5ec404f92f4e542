package chain

import (
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
