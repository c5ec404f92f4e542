package redact

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// SecretForms are the texts one secret value can be shown as: as given,
// trimmed, line by line, and each of those percent-encoded (a URL's path
// or query) or escaped in a JSON string (by Go, whose encoder writes <, >
// and & as \u escapes, and as other programs write it). Whoever hides a
// secret — a run's masker, a recording that must refuse it — looks for
// all of them.
func SecretForms(v string) []string {
	base := []string{v, strings.TrimSpace(v)}
	if strings.ContainsAny(v, "\r\n") {
		for _, line := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' }) {
			base = append(base, strings.TrimSpace(line))
		}
	}
	var out []string
	for _, f := range base {
		if strings.TrimSpace(f) == "" {
			continue
		}
		out = append(out, f, url.PathEscape(f), url.QueryEscape(f))
		if b, err := json.Marshal(f); err == nil {
			// quoted whole too, so a short secret is masked where a
			// message quotes it ("ab" is not an integer)
			out = append(out, string(b[1:len(b)-1]), string(b), strconv.Quote(f))
		}
		var plain strings.Builder
		enc := json.NewEncoder(&plain)
		enc.SetEscapeHTML(false)
		if enc.Encode(f) == nil {
			out = append(out, strings.Trim(strings.TrimSpace(plain.String()), `"`))
		}
	}
	return out
}
