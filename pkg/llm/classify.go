package llm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/pkg/redact"
)

// transportError classifies a failure to exchange a request at all: no
// answer, or an answer cut short. A cancelled context is returned as it
// is; a certificate that does not verify is permanent; a timeout and
// every other network failure are transient. Types decide, not wording.
func transportError(provider string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	redactURLError(err)
	e := &Error{Provider: provider, Err: err}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		e.Transient, e.Message = true, "timed out"
	case isCertificate(err):
		e.Message = firstLine(err.Error())
	default:
		e.Transient, e.Message = true, "connection failed: "+networkCause(err)
	}
	return e
}

// isCertificate recognises a TLS certificate that does not verify: no
// retry can mend it.
func isCertificate(err error) bool {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) || errors.As(err, &verify)
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
	if errors.As(err, &ue) {
		ue.URL = redact.URL(ue.URL)
	}
}
