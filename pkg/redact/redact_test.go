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

// TestURLsIn: every URL in a text (an error of a library that quotes
// the URL it was given) is redacted as URL does; the rest of the text is
// left as it is.
func TestURLsIn(t *testing.T) {
	for in, want := range map[string]string{
		`Post "http://admin:***@127.0.0.1:1/mcp?token=QTOKEN1": dial tcp 127.0.0.1:1: connect: connection refused`: `Post "http://***@127.0.0.1:1/mcp?…": dial tcp 127.0.0.1:1: connect: connection refused`,
		"calling initialize: https://u:pw2@h.example/sse?key=k2 and wss://h2/x#frag2 failed":                       "calling initialize: https://***@h.example/sse?… and wss://h2/x?… failed",
		"no URL here: host:port 127.0.0.1:1, a@b":                                                                  "no URL here: host:port 127.0.0.1:1, a@b",
		"(http://h/p?t=3)":     "(http://h/p?…)",
		"'http://user:pw4@h/'": "'http://***@h/'",
	} {
		if got := URLsIn(in); got != want {
			t.Errorf("URLsIn(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
