package github

import (
	"io"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/redact"
)

// MaskSecrets registers the value of every secret input of c with
// ::add-mask::, so that the runner hides it in the whole job's log
// whatever prints it. Each form a value can be shown in is registered:
// as given, trimmed, and line by line (GitHub masks one line at a time),
// and so is each string and number inside a value that is JSON.
// Call it before the run prints anything; the renderer keeps the forms,
// so Outputs never writes them. A nil Renderer does nothing.
func (g *Renderer) MaskSecrets(c *chain.Chain, inputs map[string]string) {
	if g == nil {
		return
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, in := range c.Inputs {
		v := inputs[in.Name]
		if !in.Secret || v == "" {
			continue
		}
		var forms []string
		for i, w := range append([]string{v}, redact.JSONLeaves(v)...) {
			if i > 0 && len(strings.TrimSpace(w)) < 4 {
				continue // a "1" or "abc" inside would mask every one in the job's log
			}
			forms = append(forms, w)
			forms = append(forms, strings.FieldsFunc(w, func(r rune) bool { return r == '\n' || r == '\r' })...)
		}
		for _, f := range forms {
			if f = strings.TrimSpace(f); f != "" && !seen[f] {
				seen[f] = true
				g.secrets = append(g.secrets, f)
				b.WriteString(ghCommand("add-mask", nil, f) + "\n")
			}
		}
	}
	_, _ = io.WriteString(g.w, b.String())
}

// GuardStreams makes *out and *errOut inert in GitHub Actions (getenv
// says whether the job runs there): a line the runner would obey as a
// workflow command (a step's output, an error quoting it) is fenced,
// whoever prints it; only the renderer's own commands are obeyed. The
// function returned flushes them.
func GuardStreams(getenv func(string) string, out, errOut *io.Writer) func() {
	var guards []*Guard
	for _, w := range []*io.Writer{out, errOut} {
		if g := NewGuard(getenv, *w); g != nil {
			*w = g
			guards = append(guards, g)
		}
	}
	return func() {
		for _, g := range guards {
			_ = g.Flush()
		}
	}
}
