package executor

import (
	"context"
	"strings"
	"testing"
)

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
