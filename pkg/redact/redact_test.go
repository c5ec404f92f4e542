package redact

import "testing"

func TestURL(t *testing.T) {
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
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
