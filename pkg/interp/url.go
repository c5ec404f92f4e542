package interp

import (
	"net/url"
	"strings"
)

// RenderURL renders an http url so that no value can change the URL's
// shape: each value is percent-encoded for where it stands (a path
// segment, a query key or value, the fragment, the host or credentials),
// so "&", "#", "?", "/" or a space in a value cannot add parameters, cut
// the path or break the request line.
//
// A reference that begins the url is inserted as it is: the whole URL, or
// its base, coming from one value ("{base_url}/items/{id}").
func (t *Template) RenderURL(resolve Resolver, keep bool) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		v, asWritten, err := p.ref.resolved(resolve, keep)
		if err != nil {
			return "", err
		}
		if b.Len() == 0 || asWritten {
			b.WriteString(v)
			continue
		}
		b.WriteString(urlEscape(b.String(), v))
	}
	return b.String(), nil
}

// urlEscape encodes v for the part of the URL that before ends in.
func urlEscape(before, v string) string {
	switch {
	case strings.Contains(before, "#"):
		return url.PathEscape(v)
	case strings.Contains(before, "?"):
		return url.QueryEscape(v)
	case inAuthority(before):
		return authorityEscape(v)
	}
	return url.PathEscape(v)
}

// inAuthority reports whether a URL that begins with before is still in
// its user:password@host:port part.
func inAuthority(before string) bool {
	rest, found := "", false
	if i := strings.Index(before, "://"); i >= 0 {
		rest, found = before[i+3:], true
	} else if strings.HasPrefix(before, "//") {
		rest, found = before[2:], true
	}
	return found && !strings.Contains(rest, "/")
}

// authorityEscape encodes every byte a host or credentials may not hold
// as it is (keeping ":" and "[ ]" for ports and IPv6 addresses).
func authorityEscape(v string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:[]", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
