package llm

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

// A credential the request sent is *** in what the answer says, however
// the body is cut into reads, one byte at a time too.
func TestHidingBody(t *testing.T) {
	sent := http.Header{}
	sent.Set("Authorization", "Bearer sk-SECRET-0123456789")
	sent.Set("X-Team", "platform-team-name")
	sent.Set("X-Gateway-Token", "gw-token-abcdefgh")
	body := `{"error":{"message":"Incorrect API key provided: sk-SECRET-0123456789 (header Bearer sk-SECRET-0123456789), gateway gw-token-abcdefgh, team platform-team-name"}}`
	want := `{"error":{"message":"Incorrect API key provided: *** (header ***), gateway ***, team platform-team-name"}}`
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"whole":       func(r io.Reader) io.Reader { return r },
		"byte a read": iotest.OneByteReader,
		"half a read": iotest.HalfReader,
	} {
		resp := &http.Response{Body: io.NopCloser(wrap(strings.NewReader(body)))}
		hideCredentials(resp, sent)
		got, err := io.ReadAll(resp.Body)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	resp := &http.Response{Body: io.NopCloser(strings.NewReader(body))}
	hideCredentials(resp, http.Header{"X-Team": {"platform"}})
	if got, _ := io.ReadAll(resp.Body); string(got) != body {
		t.Errorf("no credential sent: the body changed: %q", got)
	}
}

// A gateway that echoes the key in its error: the error names the
// status, never the key.
func TestEchoedKeyNeverShown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"Incorrect API key provided: `+r.Header.Get("X-Api-Key")+r.Header.Get("Authorization")+`"}}`)
	}))
	defer srv.Close()
	for _, p := range []Provider{
		NewAnthropic("anthropic", srv.URL, "sk-ant-ECHOED-987654321", srv.Client()),
		NewOpenAI("openai", srv.URL, "sk-oai-ECHOED-123456789", srv.Client()),
	} {
		_, err := p.Complete(context.Background(), Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}, MaxTokens: 10})
		if err == nil || strings.Contains(err.Error(), "ECHOED") || !strings.Contains(err.Error(), "***") {
			t.Errorf("%T: %v", p, err)
		}
	}
}
