package github

import (
	"io"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// MaskSecrets registers the value of every secret input of c with
// ::add-mask::, so that the runner hides it in the whole job's log
// whatever prints it. Each form a value can be shown in is registered:
// as given, trimmed, and line by line (GitHub masks one line at a time).
// Call it before the run prints anything.
func (g *Renderer) MaskSecrets(c *chain.Chain, inputs map[string]string) {
	var b strings.Builder
	seen := map[string]bool{}
	for _, in := range c.Inputs {
		v := inputs[in.Name]
		if !in.Secret || v == "" {
			continue
		}
		forms := append([]string{v, strings.TrimSpace(v)}, strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' })...)
		for _, f := range forms {
			if f = strings.TrimSpace(f); f != "" && !seen[f] {
				seen[f] = true
				b.WriteString(ghCommand("add-mask", nil, f) + "\n")
			}
		}
	}
	_, _ = io.WriteString(g.w, b.String())
}
