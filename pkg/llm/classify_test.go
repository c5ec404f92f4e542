package llm

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
)

// TestTransportErrorsHideURLCredentials: a base URL's user:password and
// query never show in a model call's error, whether the URL is refused
// before sending or the transport fails on it.
func TestTransportErrorsHideURLCredentials(t *testing.T) {
	for _, base := range []string{
		"htp://deploy:Zq9pw@nohost.invalid/v1?key=Zq9key",
		"http://deploy:Zq9pw@nohost.invalid/v1?key=Zq9key",
	} {
		_, err := NewOpenAI("openai", base, "k", nil).Complete(context.Background(), Request{Model: "m", Messages: []Message{{Role: User, Content: "hi"}}})
		if msg := err.Error(); err == nil || strings.Contains(msg, "Zq9") || !strings.Contains(msg, "***@nohost.invalid/v1") {
			t.Errorf("%s: error %v", base, err)
		}
	}
	err := transportError("openai", &url.Error{Op: "Post", URL: "http://u:Zq9pw@h.invalid/v1/chat/completions?key=Zq9key", Err: errors.New("dial tcp: lookup h.invalid: no such host")})
	if msg := err.Error(); strings.Contains(msg, "Zq9") || !strings.Contains(msg, "***@h.invalid/v1/chat/completions?…") {
		t.Errorf("error %q", msg)
	}
}
