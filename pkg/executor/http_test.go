package executor

import (
	"context"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com/v1/x":                "https://api.example.com/v1/x",
		"https://u:p@h.example/x?token=t#f":           "https://***@h.example/x?…",
		"http://deploy:p@ss@127.0.0.1:9/api?k=v":      "http://***@127.0.0.1:9/api?…",
		"u:pw@host/path":                              "***@host/path",
		"//u:pw@host":                                 "//***@host",
		"http://host/a@b":                             "http://host/a@b",
		"http://u:p@host/p?q=a\tb":                    "http://***@host/p?…",
		"http://u:p@host/p\nINJECTED":                 "http://***@host/p%0AINJECTED",
		"ht tp://user:secret@h:x:y/?api_key=secret":   "ht tp://***@h:x:y/?…",
		"http://user:secret@[::1/p?token=secret%zz":   "http://***@[::1/p?…",
		"http://user:secret@host:99999999/?a=secret":  "http://***@host:99999999/?…",
		"\x01http://user:secret@host/?api_key=secret": "%01http://***@host/?…",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHTTPErrorsNeverShowCredentials: a URL that fails to parse, or a
// request that fails, is named redacted in the error.
func TestHTTPErrorsNeverShowCredentials(t *testing.T) {
	for _, u := range []string{
		"http://deploy:Zq9secret@127.0.0.1:9/api?api_key=Zq9secret&q=a\tb",
		"http://deploy:Zq9secret@[::1/api?api_key=Zq9secret",
		"http://deploy:Zq9secret@127.0.0.1:99999/?api_key=Zq9secret",
		"ht!tp://deploy:Zq9secret@h/?api_key=Zq9secret",
		"http://deploy:Zq9secret@127.0.0.1:1/api?api_key=Zq9secret",
	} {
		_, err := DoHTTP(context.Background(), nil, HTTPRequest{URL: u})
		if err == nil {
			t.Fatalf("%q: no error", u)
		}
		if strings.Contains(err.Error(), "Zq9secret") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
}
