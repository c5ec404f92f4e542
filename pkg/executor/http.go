package executor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// HTTPRequest is one interpolated http step.
type HTTPRequest struct {
	Method  string
	URL     string
	Headers map[string]string
	Body    string
}

// HTTPResponse is the status and body of a response.
type HTTPResponse struct {
	Status int
	Body   string
	// Truncated is true when the body was longer than MaxCapture.
	Truncated bool
}

// DoHTTP sends the request. Only transport failures are errors: any status
// is a response, and the caller decides what a non-2xx status means.
func DoHTTP(ctx context.Context, client *http.Client, r HTTPRequest) (HTTPResponse, error) {
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if r.Body != "" {
		body = strings.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.URL, body)
	if err != nil {
		// a parse error quotes the whole URL: show it redacted instead
		return HTTPResponse{}, fmt.Errorf("bad request: %s %s: %w", method, RedactURL(r.URL), unwrapURLError(err))
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return HTTPResponse{}, ctx.Err()
		}
		return HTTPResponse{}, fmt.Errorf("%s %s: %w", method, RedactURL(r.URL), unwrapURLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxCapture+1))
	if err != nil {
		return HTTPResponse{Status: resp.StatusCode}, fmt.Errorf("reading the response of %s: %w", RedactURL(r.URL), err)
	}
	out := HTTPResponse{Status: resp.StatusCode, Body: string(data)}
	if len(data) > MaxCapture {
		out.Body, out.Truncated = out.Body[:MaxCapture], true
	}
	return out, nil
}

// RedactURL is a URL as an error or event may show it: credentials
// (user:password@) become ***, the query and fragment (where tokens often
// travel) become "?…", and control characters are escaped so that the
// text stays on one line. It works on text, not a parsed URL, so a URL
// that fails to parse is redacted too.
func RedactURL(u string) string {
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

func unwrapURLError(err error) error {
	type unwrapper interface{ Unwrap() error }
	if u, ok := err.(unwrapper); ok && u.Unwrap() != nil {
		return u.Unwrap()
	}
	return err
}
