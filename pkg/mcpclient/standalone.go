package mcpclient

import (
	"net/http"
	"sync/atomic"
)

// optionalStandalone keeps a server's standalone stream optional. That
// stream (a GET without Last-Event-ID, opened once the session starts)
// carries the server's own requests — elicitation, sampling — which the
// client answers with an error at once instead of leaving the server
// waiting mid-call. A server that answers the GET 405 has no such stream;
// one whose GET fails (no answer, a 5xx) is taken as having none too, the
// first time: calls go on over their own streams, and the session is not
// failed over a stream it may not need.
type optionalStandalone struct {
	next  http.RoundTripper
	tried atomic.Bool
}

// RoundTrip implements http.RoundTripper.
func (o *optionalStandalone) RoundTrip(r *http.Request) (*http.Response, error) {
	first := r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") == "" && o.tried.CompareAndSwap(false, true)
	resp, err := o.next.RoundTrip(r)
	if !first || err == nil && resp.StatusCode < 500 || r.Context().Err() != nil {
		return resp, err
	}
	if resp != nil {
		resp.Body.Close()
	}
	return &http.Response{Status: "405 Method Not Allowed", StatusCode: http.StatusMethodNotAllowed,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
}
