package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/redact"
)

// maxBody caps what is read of one answer or error body. A model's whole
// answer is at most a few megabytes; a server that sends more is broken.
const maxBody = 32 << 20

// endpoint is one HTTP API an adapter speaks to: where, with which
// headers, through which client. It sends JSON and turns every failure
// into a classified *Error, from the status and the typed error body,
// never from the wording of an error message.
type endpoint struct {
	provider string
	// base has no trailing slash.
	base   string
	header http.Header
	query  url.Values
	client *http.Client
	// bad is a configuration fault found when the endpoint was built (a
	// base URL that is not http or https, a header that cannot be sent):
	// every request fails with it, before anything is sent.
	bad error
}

// Option adjusts an adapter: headers to send, Azure OpenAI's URL scheme.
type Option func(*endpoint)

// WithHeaders adds headers to every request of the adapter (a gateway's
// routing or auth header, OpenAI-Organization, ...). They are sent as
// given, after the adapter's own, and may replace them.
func WithHeaders(h map[string]string) Option {
	return func(e *endpoint) {
		for k, v := range h {
			if err := CheckHeader(k, v); err != nil {
				e.bad = err
				return
			}
			e.header.Set(k, v)
		}
	}
}

// CheckHeader refuses a header net/http would refuse at send time, so
// that config reports it at once: a name that is not an HTTP token, or a
// value with a line break or NUL (which could smuggle another header).
func CheckHeader(name, value string) error {
	if name == "" || strings.IndexFunc(name, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
	}) >= 0 {
		return fmt.Errorf("header name %q is not a valid HTTP header name", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("header %s: the value holds a line break or NUL", name)
	}
	return nil
}

func newEndpoint(provider, base string, hc *http.Client, opts []Option) *endpoint {
	if hc == nil {
		hc = http.DefaultClient
	}
	e := &endpoint{provider: provider, base: strings.TrimRight(base, "/"), header: http.Header{}, client: hc}
	if u, err := url.Parse(e.base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		e.bad = fmt.Errorf("base URL %q is not an http or https URL", redact.URL(base))
	}
	for _, o := range opts {
		o(e)
	}
	return e
}

// post sends body as JSON to path and returns the response when its
// status is 2xx; the caller closes its body.
func (e *endpoint) post(ctx context.Context, path string, body any) (*http.Response, error) {
	if e.bad != nil {
		return nil, &Error{Provider: e.provider, Message: e.bad.Error(), Err: e.bad, NotSent: true}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, &Error{Provider: e.provider, Message: "cannot encode the request: " + err.Error(), Err: err, NotSent: true}
	}
	target := e.base + path
	if len(e.query) > 0 {
		target += "?" + e.query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(data))
	if err != nil {
		return nil, &Error{Provider: e.provider, Message: "cannot build the request: " + redact.URL(err.Error()), NotSent: true}
	}
	for k, v := range e.header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, transportError(e.provider, err)
	}
	hideCredentials(resp, req.Header)
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, statusError(e.provider, resp)
	}
	return resp, nil
}

// isEventStream reports whether an answer is a stream of events. A server
// asked to stream may answer with one JSON body instead (an error, or a
// server that cannot stream): that is read whole.
func isEventStream(resp *http.Response) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
}

// decode reads a whole JSON answer into v. A body cut short is a
// connection failure; one that is not the JSON expected is malformed;
// both are transient.
func (e *endpoint) decode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return transportError(e.provider, err)
	}
	if len(data) > maxBody {
		return malformed(e.provider, fmt.Sprintf("the answer is larger than %d MiB", maxBody>>20))
	}
	if err := json.Unmarshal(data, v); err != nil {
		return malformed(e.provider, err.Error())
	}
	return nil
}

func malformed(provider, why string) *Error {
	return &Error{Provider: provider, Transient: true, Message: "malformed response: " + why}
}

// apiError is the error body of either wire format: Messages'
// {"type":"error","error":{"type","message"}}, Chat Completions'
// {"error":{"message","type","code"}}, and the {"error":"text"} or
// {"message":"text"} of some compatible servers.
type apiError struct {
	Message string          `json:"message"`
	Detail  json.RawMessage `json:"error"`
}

type apiErrorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Code    any    `json:"code"`
}

// read returns the error's type and message, both empty when body is
// not an error body of a known shape.
func (a apiError) read() (kind, message string) {
	var d apiErrorDetail
	if len(a.Detail) > 0 && json.Unmarshal(a.Detail, &d) == nil {
		kind, message = d.Type, d.Message
		if kind == "" {
			if code, ok := d.Code.(string); ok {
				kind = code
			}
		}
	} else if len(a.Detail) > 0 {
		_ = json.Unmarshal(a.Detail, &message)
	}
	if message == "" {
		message = a.Message
	}
	return kind, message
}

// statusError reads a non-2xx answer: its status decides whether it is
// transient (the error types of one status do not differ in that), and
// the server's x-should-retry header, when it says true or false, whether
// it is sent again (Anthropic and OpenAI send it; their SDKs obey it
// either way); its typed body gives the message.
func statusError(provider string, resp *http.Response) *Error {
	e := &Error{Provider: provider, Status: resp.StatusCode, Transient: TransientStatus(resp.StatusCode), RetryAfter: retryAfter(resp.Header)}
	switch resp.Header.Get("X-Should-Retry") {
	case "true":
		e.Transient = true
	case "false":
		e.NoRetry = true
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var body apiError
	if json.Unmarshal(data, &body) == nil {
		_, e.Message = body.read()
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	return e
}

// streamError is an error event inside a stream, after the 200 that
// opened it. It is transient unless its type says the request itself is
// wrong.
func streamError(provider string, data []byte) *Error {
	var body apiError
	kind, msg := "", ""
	if json.Unmarshal(data, &body) == nil {
		kind, msg = body.read()
	}
	if msg == "" {
		msg = "the server sent an error inside the stream"
	}
	return &Error{Provider: provider, Transient: !permanentTypes()[kind], Message: msg}
}

// permanentTypes are error types that no retry mends.
var permanentTypes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"invalid_request_error": true, "authentication_error": true, "permission_error": true,
		"not_found_error": true, "request_too_large": true, "billing_error": true,
	}
})

// errorFrom turns what went wrong while a stream was read into *Error:
// a failure of its own kind as it is, anything else from the transport.
func errorFrom(provider string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, errEventTooLarge) {
		return malformed(provider, err.Error())
	}
	return transportError(provider, err)
}
