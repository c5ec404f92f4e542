package tools

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandPolicyAgainstBash builds commands from pieces that hide a
// program (quotes, continuations, expansions, assignments, builtins,
// operators) and runs every one the policy lets through under bash, with a
// touch that leaves a mark, denied or not allowed: none may run it. The pieces are fixed
// and the draw seeded, so a failure repeats.
func TestCommandPolicyAgainstBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	d := t.TempDir()
	for _, sub := range []string{"bin", "w"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d, "bin", "touch"), []byte("#!/bin/sh\n: > "+d+"/PWNED\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "w", "f"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	frags := []string{"touch", "t'o'uch", "to\"\"uch", "\\touch", "t\\\nouch", "$'touch'", "${T}", "$T", "`echo touch`", "$(echo touch)", "{touch,}", "tou?h", "tou[c]h",
		" ", ";", "&&", "||", "|", "&", "\n", "!", "(", ")", "{", "}", "echo", "read", "printf", "-v", "PATH", "T=touch", "x=1", "eval", "exec", "command", "builtin",
		"'", "\"", "#", "<", ">", "f", "<<<", "$[", "]", "a", "=", "export", "unset", "declare", "-n", "-i", "let", "test", "-v", ":", "cd", "..", "set", "--", "x[$(touch)]",
		"alias", "shopt", "-s", "expand_aliases", "BASH_ENV=f", "ENV=f", "trap", "source", ".", "IFS=o", "to${IFS}uch", "touc\\h", "\\", "time", "coproc", "function", "case", "in", "esac", "if", "then", "fi",
		"\\\n", "*", "?", "~", "$0", "$_", "$@", "\"$@\"", "sh", "bash", "-c", "[[", "]]", "$((", "))", "2>&1", "1>", "&>", ">&1set", "<&0x", "x+=", "t$@ouch", "tou'ch'", "printf -v", ">&-", "<&", ">&", "0", "2", "|&", ";;", "\t", "\r", "\v"}
	policies := []CommandPolicy{{Denied: []string{"touch"}}, {Allowed: []string{"echo", "cat", "ls"}}}
	r := rand.New(rand.NewSource(28))
	passed := 0
	for i := range 20000 {
		p := policies[i%len(policies)]
		k := 1 + r.Intn(7)
		var b strings.Builder
		for j := 0; j < k; j++ {
			if j > 0 && r.Intn(2) == 0 {
				b.WriteByte(' ')
			}
			b.WriteString(frags[r.Intn(len(frags))])
		}
		cmd := b.String()
		if !strings.Contains(cmd, "ouch") && !strings.Contains(cmd, "T") {
			continue
		}
		if p.Check(cmd) != nil {
			continue
		}
		passed++
		c := exec.Command("bash", "-c", cmd)
		c.Dir = filepath.Join(d, "w")
		c.Env = []string{"PATH=" + d + "/bin:/usr/bin:/bin", "T=touch"}
		_ = c.Run()
		if _, err := os.Stat(filepath.Join(d, "PWNED")); err == nil {
			t.Errorf("%q passed the policy %+v and ran touch", cmd, p)
			_ = os.Remove(filepath.Join(d, "PWNED"))
		}
	}
	if passed == 0 {
		t.Fatal("no command passed: the test checks nothing")
	}
}
