package llm

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
)

// minHidden is the shortest credential hidden in answers: a shorter
// header value (a team name, "1") is no key, and masking it would garble
// answers.
const minHidden = 8

// credentials are the values of the request's headers that carry a key
// (Authorization, with its scheme and without, X-Api-Key, api-key, and
// any header whose name says key, token, auth, secret or cookie): what a
// gateway or a proxy may echo back in an error ("Incorrect API key
// provided: sk-…") or a model in an answer.
func credentials(h http.Header) [][]byte {
	var out [][]byte
	add := func(v string) {
		if v = strings.TrimSpace(v); len(v) >= minHidden {
			out = append(out, []byte(v))
		}
	}
	for name, values := range h {
		n := strings.ToLower(name)
		if !strings.Contains(n, "key") && !strings.Contains(n, "token") && !strings.Contains(n, "auth") &&
			!strings.Contains(n, "secret") && !strings.Contains(n, "cookie") {
			continue
		}
		for _, v := range values {
			add(v)
			if scheme, rest, ok := strings.Cut(v, " "); ok && scheme != "" {
				add(rest) // Bearer KEY: the key alone too
			}
		}
	}
	// longest first, so that a key inside "Bearer KEY" is not left behind
	slices.SortStableFunc(out, func(a, b []byte) int { return len(b) - len(a) })
	return out
}

// hidingBody is a response body with the request's credentials replaced
// by *** as it is read, whatever reads it (an error body, a whole answer,
// a stream of events): a key echoed back never reaches an error, an
// event, a saved run or the answer cache. The last bytes of each read are
// held back until the next, so that a key split between two reads is
// still found whole.
type hidingBody struct {
	r       io.ReadCloser
	secrets [][]byte
	keep    int    // the longest secret's length less one
	buf     []byte // read, not yet masked
	out     []byte // masked, not yet given
	err     error  // what the body's last read ended with
}

// hideCredentials wraps resp's body when the request sent a credential.
func hideCredentials(resp *http.Response, sent http.Header) {
	secrets := credentials(sent)
	if len(secrets) == 0 {
		return
	}
	resp.Body = &hidingBody{r: resp.Body, secrets: secrets, keep: len(secrets[0]) - 1}
}

func (h *hidingBody) Read(p []byte) (int, error) {
	for len(h.out) == 0 {
		if h.err != nil {
			if len(h.buf) == 0 {
				return 0, h.err
			}
			h.mask(true)
			continue
		}
		chunk := make([]byte, 32<<10)
		n, err := h.r.Read(chunk)
		h.buf = append(h.buf, chunk[:n]...)
		h.err = err
		if n > 0 {
			h.mask(err != nil)
		}
	}
	n := copy(p, h.out)
	h.out = h.out[n:]
	return n, nil
}

// mask moves what of buf can be told whole into out, each secret in it
// replaced; at the end all of it, else all but the last keep bytes (the
// start of a secret the next read may finish).
func (h *hidingBody) mask(end bool) {
	cut := len(h.buf)
	if !end {
		cut = max(len(h.buf)-h.keep, 0)
	}
	i := 0
	for i < cut {
		next, length := -1, 0
		for _, s := range h.secrets {
			if j := bytes.Index(h.buf[i:], s); j >= 0 && (next < 0 || j < next) {
				next, length = j, len(s)
			}
		}
		if next < 0 || i+next >= cut {
			h.out = append(h.out, h.buf[i:cut]...)
			i = cut
			break
		}
		h.out = append(h.out, h.buf[i:i+next]...)
		h.out = append(h.out, "***"...)
		i += next + length
	}
	h.buf = append(h.buf[:0:0], h.buf[i:]...)
}

func (h *hidingBody) Close() error { return h.r.Close() }
