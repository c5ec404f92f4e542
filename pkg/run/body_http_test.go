package run

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestHTTPValuesAreEncodedWhereTheyGo: a value with "&", "#", "?", "/" or
// a space reaches the server as one path segment or one query value,
// never as more parameters or a broken request line, in an http step and
// an http pre_tool; a url that begins with a reference keeps that value
// as it is.
func TestHTTPValuesAreEncodedWhereTheyGo(t *testing.T) {
	var mu sync.Mutex
	got := map[string]*url.URL{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[strings.Split(r.URL.Path, "/")[1]] = r.URL
		mu.Unlock()
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	v := `a&admin=1#frag ?x/y", "m": "z`
	res := runChain(t, `
name: t
inputs: [host, base, v]
steps:
  - {id: q, type: http, url: 'http://{input.host}/items/{input.v}?q={input.v}&n=1'}
  - {id: raw, type: http, url: '{input.base}'}
  - {id: pre, type: cli, command: echo, args: ['{d}'], pre_tools: [{type: http, url: 'http://{input.host}/pre?q={input.v}', inject_as: d}]}
`, map[string]string{"host": strings.TrimPrefix(srv.URL, "http://"), "base": srv.URL + "/root?k=1&j=2", "v": v})
	if res.Status != record.Succeeded {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	if u := got["items"]; u == nil || u.Path != "/items/"+v || len(u.Query()) != 2 || u.Query().Get("q") != v || u.Query().Get("n") != "1" {
		t.Errorf("the step's request: %v", u)
	}
	if u := got["pre"]; u == nil || len(u.Query()) != 1 || u.Query().Get("q") != v {
		t.Errorf("the pre_tool's request: %v", u)
	}
	if u := got["root"]; u == nil || u.RawQuery != "k=1&j=2" {
		t.Errorf("a url given whole by one reference was changed: %v", u)
	}
}
