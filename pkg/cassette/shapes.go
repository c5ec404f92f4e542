package cassette

import (
	"regexp"
	"sync"
)

// A credential no variable names — a key file a step read into a prompt,
// a token pasted in a document the model is shown — is known by its
// shape: the formats below are the ones their issuers give so that
// scanners can find them, specific enough that prose and placeholders
// (sk-..., "ghp_ tokens") do not match.

// credentialShape is one kind of credential and how its text looks.
type credentialShape struct {
	kind string
	re   *regexp.Regexp
}

var credentialShapes = sync.OnceValue(func() []credentialShape {
	shapes := []struct{ kind, re string }{
		{"a private key", `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`},
		{"an AWS access key id", `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`},
		{"a GitHub token", `\bgh[pousr]_[A-Za-z0-9]{36,}|\bgithub_pat_[A-Za-z0-9_]{40,}`},
		{"a GitLab token", `\bglpat-[0-9A-Za-z_-]{20,}`},
		{"a Slack token", `\bxox[abposr]-[0-9A-Za-z-]{10,}`},
		{"an Anthropic API key", `\bsk-ant-[A-Za-z0-9_-]{20,}`},
		{"an OpenAI API key", `\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{30,}`},
		{"a Google API key", `\bAIza[0-9A-Za-z_-]{35}\b`},
		{"a Stripe live key", `\b[sr]k_live_[0-9A-Za-z]{20,}`},
	}
	out := make([]credentialShape, len(shapes))
	for i, s := range shapes {
		out[i] = credentialShape{s.kind, regexp.MustCompile(s.re)}
	}
	return out
})

// credentialIn names the kind of the first credential-shaped text in
// text, or "".
func credentialIn(text string) string {
	for _, s := range credentialShapes() {
		if s.re.MatchString(text) {
			return s.kind
		}
	}
	return ""
}
