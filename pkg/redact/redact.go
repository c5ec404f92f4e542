// Package redact words a URL so that an error, event or log may quote
// it: the HTTP steps and the model providers both name the endpoint that
// failed, and neither may show a password or a token on the way. It is
// one reading of a URL's secrets for both, and one list of the forms a
// secret value can take in a text (SecretForms) for all that hide one.
//
// It imports nothing of this module.
package redact

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// URL is a URL as an error or event may show it: credentials
// (user:password@) become ***, the query and fragment (where tokens often
// travel) become "?…", and control characters are escaped so that the
// text stays on one line. It works on text, not a parsed URL, so a URL
// that fails to parse is redacted too.
func URL(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i] + "?…"
	}
	// the authority runs from after "//" (or the start, when the URL has
	// no scheme) to the first "/"; credentials end at its last "@", since
	// a password may hold an unescaped "@"
	start := 0
	if i := strings.Index(u, "//"); i >= 0 {
		start = i + 2
	}
	end := len(u)
	if i := strings.IndexByte(u[start:], '/'); i >= 0 {
		end = start + i
	}
	if at := strings.LastIndexByte(u[start:end], '@'); at >= 0 {
		u = u[:start] + "***" + u[start+at:]
	}
	var b strings.Builder
	for _, r := range u {
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// urlInText finds a URL in a text: a scheme, "://", and what follows up
// to a blank, a quote or a bracket that closes it.
var urlInText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'`<>()]+")
})

// URLsIn is a text with every URL in it redacted as URL does: for an
// error of a library that quotes the URL it was given (Go's HTTP client
// hides a password, but neither a query nor a user alone).
func URLsIn(text string) string {
	return urlInText().ReplaceAllStringFunc(text, URL)
}
