package llm

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// TestTransportErrorsHideURLCredentials: a base URL's user:password and
// query never show in a model call's error.
func TestTransportErrorsHideURLCredentials(t *testing.T) {
	for _, cause := range []error{
		errors.New(`unsupported protocol scheme "htp"`),
		errors.New("dial tcp: lookup nohost.invalid: no such host"),
	} {
		err := classify("openai", &url.Error{Op: "Post", URL: "htp://deploy:Zq9pw@nohost.invalid/v1/chat/completions?key=Zq9key", Err: cause}, 0, nil, "")
		if msg := err.Error(); strings.Contains(msg, "Zq9") || !strings.Contains(msg, "***@nohost.invalid/v1/chat/completions?…") {
			t.Errorf("error %q", msg)
		}
	}
}
