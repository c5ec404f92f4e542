package interp

import (
	"os/exec"
	"strings"
	"testing"
)

// The script a dry run shows, run as it is by sh, prints what the real
// script prints with its values: the display never adds quotes the script
// does not see (in "...", '...', a heredoc), and is never runnable code
// the real one is not.
func TestDryRunShowsWhatTheScriptSees(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	scripts := []string{
		`echo {v}`,
		`echo "not a repository: {v} (pass repo=PATH)"`,
		`echo 'single: {v} here'`,
		`printf '%s|' pre{v}post`,
		"cat <<EOF\nhere: {v} and $((1+1))\nEOF",
		"cat <<'EOF'\nquoted: {v}\nEOF",
		`echo "in: $(printf '%s|' {v})"`,
		`echo "${NOPE:-{v}}"`,
		`x={v}; echo "$x"`,
	}
	values := []string{"/w/not repo", "it's", `"q" $HOME \n`, "`id` $(id) ${x}", "a\nb", "*", "", "-n", `back\slash\`}
	for _, script := range scripts {
		for _, v := range values {
			tpl := ParseTemplate(script)
			real, env, err := tpl.RenderShell(resolverOf(map[string]string{"v": v}), false)
			if err != nil {
				t.Fatalf("%q with %q: %v", script, v, err)
			}
			shown := tpl.RenderShellForDisplay(resolverOf(map[string]string{"v": v}))
			want := runSh(t, real, env)
			if got := runSh(t, shown, nil); got != want {
				t.Errorf("%q with %q:\nshown %q prints %q\nthe script prints %q", script, v, shown, got, want)
			}
		}
	}
	// the finding's case, as a person reads it: no quotes the script never sees
	shown := ParseTemplate(`echo "not a git repository: {v} (pass --input repo=PATH)"`).RenderShellForDisplay(resolverOf(map[string]string{"v": "/w/not repo"}))
	if shown != `echo "not a git repository: /w/not repo (pass --input repo=PATH)"` {
		t.Errorf("shown %s", shown)
	}
}

// runSh runs a script with only env (and PATH) and returns its output.
func runSh(t *testing.T, script string, env []string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir, cmd.Env = t.TempDir(), append([]string{"PATH=/usr/bin:/bin", "HOME=/home/x"}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "error: " + err.Error() + ": " + strings.TrimSpace(string(out))
	}
	return string(out)
}
