package redact

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// SecretForms are the texts one secret value can be shown as: as given,
// trimmed, each string and number inside it when it is a JSON object or
// list, line by line, and each of those percent-encoded (a URL's path
// or query) or escaped in a JSON string (by Go, whose encoder writes <, >
// and & as \u escapes, and as other programs write it). Whoever hides a
// secret — a run's masker, a recording that must refuse it — looks for
// all of them.
func SecretForms(v string) []string {
	base := append([]string{v, strings.TrimSpace(v)}, JSONLeaves(v)...)
	for _, b := range slices.Clone(base) {
		if strings.ContainsAny(b, "\r\n") {
			for _, line := range strings.FieldsFunc(b, func(r rune) bool { return r == '\n' || r == '\r' }) {
				base = append(base, strings.TrimSpace(line))
			}
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

// JSONLeaves are the strings and numbers inside v when v is a JSON object
// or list (a service account's key file, a list of tokens): a step that
// prints the secret has its output read as JSON and shown field by field,
// where no whole form of v is left to find, and a $.-path or an
// expression can pick one field out. Keys stay readable: they name what
// a value is, and masking "type" everywhere would hide the run.
func JSONLeaves(v string) []string {
	t := strings.TrimSpace(v)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var d any
	if dec.Decode(&d) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			out = append(out, x)
		case json.Number:
			out = append(out, x.String())
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(d)
	return out
}
