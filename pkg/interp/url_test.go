package interp

import (
	"net/url"
	"testing"
)

func TestRenderURLEncodesValuesWhereTheyGo(t *testing.T) {
	vals := map[string]string{
		"base": "https://api.example.com/v1?x=1",
		"v":    "a&admin=1#frag",
		"sp":   `hi", "model": "fail`,
		"p":    "../a/b?c",
		"host": "evil.example/x?",
		"tok":  "p@ss:/w",
		"e":    "",
	}
	resolve := func(r Ref) (string, bool, error) { v, ok := vals[r.Name]; return v, ok, nil }
	for tmpl, want := range map[string]string{
		"{base}":                           "https://api.example.com/v1?x=1",
		"{base}&q={v}":                     "https://api.example.com/v1?x=1&q=a%26admin%3D1%23frag",
		"http://h/s/{v}?q={v}#{v}":         "http://h/s/a&admin=1%23frag?q=a%26admin%3D1%23frag#a&admin=1%23frag",
		"http://h/items/{p}":               "http://h/items/..%2Fa%2Fb%3Fc",
		"http://h/?q={sp}":                 "http://h/?q=hi%22%2C+%22model%22%3A+%22fail",
		"http://h/{sp}":                    "http://h/hi%22%2C%20%22model%22:%20%22fail",
		"http://{host}.example.com/":       "http://evil.example%2Fx%3F.example.com/",
		"http://deploy:{tok}@h/":           "http://deploy:p%40ss:%2Fw@h/",
		"http://h/?q={e|\"a b\"}":          "http://h/?q=a+b",
		"http://h/?q={missing}&r={v}":      "http://h/?q={missing}&r=a%26admin%3D1%23frag",
		"http://h/path/without/refs?x=1&y": "http://h/path/without/refs?x=1&y",
	} {
		got, err := ParseTemplate(tmpl).RenderURL(resolve, true)
		if err != nil || got != want {
			t.Errorf("%s: got %q (%v), want %q", tmpl, got, err, want)
			continue
		}
		// a host a value would change fails to parse: no request is sent
		if u, err := url.Parse(got); err == nil && u.Host == "evil.example" {
			t.Errorf("%s: the value changed the host: %q", tmpl, got)
		} else if err != nil && tmpl != "http://{host}.example.com/" {
			t.Errorf("%s: %q does not parse: %v", tmpl, got, err)
		}
	}
}

func TestRenderURLQueryValuesRoundTrip(t *testing.T) {
	for _, v := range []string{"a&b=c", "x#y", "?", "a b", "100%", "é/ü", "+"} {
		got, err := ParseTemplate("http://h/p/{v}?k={v}").RenderURL(func(Ref) (string, bool, error) { return v, true, nil }, false)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if q := u.Query(); len(q) != 1 || q.Get("k") != v {
			t.Errorf("%q: query %v, want k=%q alone", v, q, v)
		}
		if u.Path != "/p/"+v {
			t.Errorf("%q: path %q", v, u.Path)
		}
	}
}
