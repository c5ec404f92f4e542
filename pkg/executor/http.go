package executor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/chainrun/chainrun/pkg/redact"
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
		return HTTPResponse{}, fmt.Errorf("bad request: %s %s: %w", method, redact.URL(r.URL), unwrapURLError(err))
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
		return HTTPResponse{}, fmt.Errorf("%s %s: %w", method, redact.URL(r.URL), unwrapURLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxCapture+1))
	if err != nil {
		return HTTPResponse{Status: resp.StatusCode}, fmt.Errorf("reading the response of %s: %w", redact.URL(r.URL), err)
	}
	out := HTTPResponse{Status: resp.StatusCode, Body: string(data)}
	if len(data) > MaxCapture {
		out.Body, out.Truncated = out.Body[:MaxCapture], true
	}
	return out, nil
}

func unwrapURLError(err error) error {
	type unwrapper interface{ Unwrap() error }
	if u, ok := err.(unwrapper); ok && u.Unwrap() != nil {
		return u.Unwrap()
	}
	return err
}
