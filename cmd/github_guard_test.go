package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render/github/githubtest"
)

// obeyed is what the GitHub Actions runner would obey in a log (both
// command syntaxes, githubtest.Obeys), each command's line, with the
// lines of other output counted before the first command.
func obeyed(log string) (cmds []string, textBefore int) {
	lines := strings.FieldsFunc(log, func(r rune) bool { return r == '\n' || r == '\r' })
	for _, c := range githubtest.Obeys(log) {
		cmds = append(cmds, strings.TrimLeft(c.Line, " \t"))
	}
	if len(cmds) > 0 {
		for textBefore < len(lines) && len(githubtest.Obeys(lines[textBefore])) == 0 {
			textBefore++
		}
	}
	return cmds, textBefore
}

// TestGitHubActionsObeysOnlyChainrunsCommands: with hostile step output
// (command lines on stdout and stderr, indented, after a carriage return,
// in the error, in the chain's output), the runner would obey only the
// commands chainrun means: the secret's masks first, then groups,
// annotations.
func TestGitHubActionsObeysOnlyChainrunsCommands(t *testing.T) {
	dir := t.TempDir()
	chains := filepath.Join(dir, "chains")
	if err := os.MkdirAll(chains, 0o700); err != nil {
		t.Fatal(err)
	}
	src := `name: hostile
inputs: [{name: tok, secret: true}]
steps:
  - {id: out, type: cli, run: 'printf "::notice::injected-out\nok ##[warning file=a.go,line=2]injected-v1\n"', output_var: o}
  - id: bad
    type: cli
    depends_on: [out]
    run: 'printf "boom\n::error title=x::injected-err\n  ::add-mask::injected-mask\nx\r::warning::injected-cr\n::stop-commands::injected-stop\n::endgroup::\ntotal ##[Set-Output name=b]injected-v1-err\n\t##[stop-commands]injected-v1-stop\n" >&2; echo "::set-output name=a::injected-stdout"; exit 1'
  - {id: unread, type: cli, run: 'true', output_var: never_read}
output: o
`
	if err := os.WriteFile(filepath.Join(chains, "hostile.yaml"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("CHAINRUN_CACHE_DIR", filepath.Join(dir, "cache"))
	t.Setenv("CHAINRUN_CHAINS_DIR", chains)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(dir, "summary.md"))
	for _, extra := range [][]string{nil, {"-v"}, {"-q"}, {"-o", "json"}} {
		io, _, out, errOut := iostreams.Test()
		f := newFactory(io)
		f.getwd = func() (string, error) { return dir, nil }
		args := append([]string{"run", "hostile", "--input", "tok=tok-Zq9-gha\n"}, extra...)
		if code := execute(context.Background(), f, args); code != 1 {
			t.Fatalf("%v: exit %d\n%s", extra, code, errOut)
		}
		cmds, before := obeyed(errOut.String())
		if before > 0 || len(cmds) < 2 || cmds[0] != "::add-mask::tok-Zq9-gha" {
			t.Errorf("%v: the secret is not masked before any output (%d lines before): %q", extra, before, cmds)
		}
		for _, c := range cmds {
			ours := false
			for _, p := range []string{"::add-mask::tok-Zq9-gha", "::group::", "::endgroup::", "::stop-commands::chainrun-", "::error file=chains/hostile.yaml,line=5,col=5,title=hostile failed at step bad::"} {
				ours = ours || strings.HasPrefix(c, p)
			}
			if !ours {
				t.Errorf("%v: stderr has an obeyed command from a step: %q\n%s", extra, c, errOut)
			}
		}
		for _, c := range githubtest.Obeys(out.String()) {
			if c.Name != "stop-commands" || !strings.HasPrefix(c.Data, "chainrun-") {
				t.Errorf("%v: stdout has an obeyed command: %q", extra, c.Line)
			}
		}
	}
}
