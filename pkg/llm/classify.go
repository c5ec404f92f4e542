package llm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// classify turns an SDK or transport error into *Error. status and resp
// come from the SDK's API error when there was a response.
func classify(provider string, err error, status int, resp *http.Response, message string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	redactURLError(err)
	e := &Error{Provider: provider, Status: status, Err: err, Message: message}
	switch {
	case status > 0:
		e.Transient = transientStatus(status)
		if resp != nil {
			e.RetryAfter = retryAfter(resp.Header)
		}
		if e.Message == "" {
			e.Message = http.StatusText(status)
		}
	case errors.Is(err, context.DeadlineExceeded):
		e.Transient, e.Message = true, "timed out"
	case isConfig(err):
		e.Message = firstLine(err.Error())
	case isMalformed(err):
		e.Transient, e.Message = true, "malformed response: "+firstLine(err.Error())
	case isNetwork(err):
		e.Transient, e.Message = true, "connection failed: "+networkCause(err)
	default:
		e.Message = firstLine(err.Error())
	}
	return e
}

// streamFailure makes an error that arrived inside a stream (after the
// 200 that opened it: an overloaded or server error event, a broken
// chunk) transient, as the same failure is without streaming.
func streamFailure(err error) error {
	var e *Error
	if errors.As(err, &e) && (e.Status == 0 || e.Status == http.StatusOK) {
		e.Transient = true
		if e.Status == http.StatusOK {
			e.Status = 0
		}
	}
	return err
}

// isConfig recognises failures that no retry can mend: a certificate that
// does not verify, an unsupported URL scheme.
func isConfig(err error) bool {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) || errors.As(err, &verify) ||
		strings.Contains(err.Error(), "unsupported protocol scheme")
}

func isNetwork(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

func networkCause(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the response ended early"
	}
	return firstLine(err.Error())
}

func isMalformed(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	// The SDKs decode bodies whole; a body cut short mid-JSON reports an
	// unexpected EOF at "parsing" time rather than while reading.
	msg := err.Error()
	return errors.As(err, &se) || errors.As(err, &te) || strings.Contains(msg, "invalid character") ||
		strings.Contains(msg, "unexpected end of JSON") || strings.Contains(msg, "parsing") && errors.Is(err, io.ErrUnexpectedEOF)
}

// retryAfter reads Retry-After (seconds or an HTTP date) and the
// retry-after-ms header some providers send.
func retryAfter(h http.Header) time.Duration {
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if n, err := strconv.ParseFloat(ms, 64); err == nil && n > 0 {
			return time.Duration(n * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 {
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// redactURLError hides the credentials and the query of the URL a
// transport error quotes (a base URL may carry user:password@, a proxy a
// token): the message names scheme, host and path only.
func redactURLError(err error) {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return
	}
	if i := strings.IndexAny(ue.URL, "?#"); i >= 0 {
		ue.URL = ue.URL[:i] + "?…"
	}
	start := 0
	if i := strings.Index(ue.URL, "//"); i >= 0 {
		start = i + 2
	}
	end := len(ue.URL)
	if i := strings.IndexByte(ue.URL[start:], '/'); i >= 0 {
		end = start + i
	}
	if at := strings.LastIndexByte(ue.URL[start:end], '@'); at >= 0 {
		ue.URL = ue.URL[:start] + "***" + ue.URL[start+at:]
	}
}
