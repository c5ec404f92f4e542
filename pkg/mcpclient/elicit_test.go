package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/mcpclient"
	"github.com/chainrun/chainrun/pkg/mcpclient/mcptest"
)

// rudeServer speaks streamable HTTP by hand, as a server that breaks the
// rules would: during tools/call it sends the client a request the
// client never declared it could answer (method, with params) — on the
// standalone stream the client opened with a GET when standalone, else
// on the call's own stream — and waits up to 10 s for the answer, which
// it then gives as the tool's text.
func rudeServer(t *testing.T, method, params string, standalone bool) *httptest.Server {
	t.Helper()
	answers := make(chan string, 1)
	listening := make(chan chan string, 1)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && standalone {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			events := make(chan string, 1)
			listening <- events
			select {
			case ev := <-events:
				io.WriteString(w, ev)
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			case <-r.Context().Done():
			}
			return
		}
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		json.Unmarshal(body, &msg)
		w.Header().Set("Mcp-Session-Id", "s1")
		reply := func(result string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, msg.ID, result)
		}
		switch msg.Method {
		case "initialize":
			reply(`"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"rude","version":"1"}}`)
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			ask := fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"ask-1\",\"method\":%q,\"params\":%s}\n\n", method, params)
			text := "no answer in 10s"
			if standalone {
				select {
				case events := <-listening:
					events <- ask
				case <-time.After(2 * time.Second):
					answers <- "the client opened no standalone stream"
				}
			} else {
				io.WriteString(w, ask)
			}
			w.(http.Flusher).Flush()
			select {
			case a := <-answers:
				text = a
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
				return
			}
			result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", msg.ID, result)
		case "":
			if strings.Contains(string(body), `"ask-1"`) { // the client's answer
				answers <- strings.TrimSpace(string(body))
			}
			w.WriteHeader(http.StatusAccepted)
		default:
			if len(msg.ID) == 0 {
				w.WriteHeader(http.StatusAccepted) // a notification
				return
			}
			reply(`"error":{"code":-32601,"message":"method not found"}`)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// TestUndeclaredServerRequestsAreAnsweredAtOnce: a server that asks the
// client for what it never offered — elicitation (form or URL), sampling,
// the roots — gets an error answer at once, so the tool call goes on
// instead of waiting for the server to give up.
func TestUndeclaredServerRequestsAreAnsweredAtOnce(t *testing.T) {
	tests := []struct{ name, method, params string }{
		{"elicitation form", "elicitation/create", `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"x"}}}}`},
		{"elicitation url", "elicitation/create", `{"mode":"url","message":"Log in","url":"https://example.invalid/login","elicitationId":"e9"}`},
		{"sampling", "sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`},
	}
	for _, tt := range tests {
		for _, standalone := range []bool{false, true} {
			name := tt.name + " on the call's stream"
			if standalone {
				name = tt.name + " on the standalone stream"
			}
			t.Run(name, func(t *testing.T) { undeclared(t, rudeServer(t, tt.method, tt.params, standalone)) })
		}
	}
}

// undeclared calls the rude server's tool and checks that its request
// got an error answer at once.
func undeclared(t *testing.T, s *httptest.Server) {
	var p mcpclient.Pool
	defer p.Close()
	start := time.Now()
	res, err := p.Call(context.Background(), mcpclient.Server{Name: "rude", URL: s.URL}, "anything", nil)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second || !strings.Contains(res.Text, `"error"`) || strings.Contains(res.Text, `"result"`) {
		t.Errorf("after %s the server got %q", time.Since(start), res.Text)
	}
}

// TestAServerWithoutAStandaloneStreamStillWorks: a server whose GET is
// refused (405, 404), fails (500) or drops the connection is used as one
// without the standalone stream: its calls work, at once.
func TestAServerWithoutAStandaloneStreamStillWorks(t *testing.T) {
	srv := mcptest.New()
	web := srv.HTTP()
	defer web.Close()
	for _, get := range []int{405, 404, 500, 0} {
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet {
				if get == 0 {
					c, _, _ := w.(http.Hijacker).Hijack()
					c.Close()
					return
				}
				w.WriteHeader(get)
				return
			}
			httputil.NewSingleHostReverseProxy(mustParse(t, web.URL)).ServeHTTP(w, r)
		}))
		var p mcpclient.Pool
		start := time.Now()
		for _, text := range []string{"one", "two"} {
			res, err := p.Call(context.Background(), mcpclient.Server{Name: "plain", URL: proxy.URL}, "echo", map[string]any{"text": text})
			if err != nil || res.Text != text {
				t.Errorf("GET answered %d: %q %v", get, res.Text, err)
			}
		}
		if time.Since(start) > 3*time.Second {
			t.Errorf("GET answered %d: the calls took %s", get, time.Since(start))
		}
		p.Close()
		proxy.Close()
	}
}

func mustParse(t *testing.T, raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
