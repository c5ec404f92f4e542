package remote

import (
	"reflect"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// An http step sends one request, whose body is the output and whose
// status is OUTPUT_status (chain.HTTPFields, shared with the webhook, mcp
// and cli steps that name a connection); mcp-flowgate's rest executor is
// the same step.
func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindHTTP,
		Order:   30,
		Aliases: []chain.Kind{chain.KindREST},
		Body:    reflect.TypeFor[chain.HTTPFields](),
		Also:    []string{"path", chain.KeyField},
		Check:   checkHTTP,
		Compile: compileHTTP,
	})
}

// checkHTTP requires a url (or a connection and path) and a known method,
// which it writes in capitals.
func checkHTTP(v chain.Checker, s *chain.Step) {
	switch {
	case s.HTTP().Connection != "":
		if s.HTTP().URL != "" {
			v.Errorf(s.At("url"), "%s: url and connection: set one (a connection's baseUrl with path)", s.Subject())
		}
		v.Connection(s, chain.ConnREST)
	case s.HTTP().URL == "" && s.Path().Path != "":
		v.Errorf(s.At("path"), "%s: path is added to a connection's baseUrl: set connection, or url", s.Subject())
	case s.HTTP().URL == "":
		v.Errorf(s.Pos, "%s: url is required for an http step (or connection and path)", s.Subject())
	}
	if s.HTTP().Method != "" {
		m := strings.ToUpper(s.HTTP().Method)
		if !slices.Contains([]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}, m) {
			v.Errorf(s.At("method"), "%s: method %q is not an HTTP method", s.Subject(), s.HTTP().Method)
		}
		chain.Own[chain.HTTPFields](s).Method = m
	}
}

// compileHTTP parses an http (or webhook) step's URL, body, headers and
// query.
func compileHTTP(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	c.URL = v.Template(s, "url", s.HTTP().URL)
	c.Body = v.Template(s, "body", s.HTTP().Body)
	c.Headers = v.Templates(s, "headers", s.HTTP().Headers)
	if s.HTTP().BodyData != nil {
		c.BodyJSON = v.Mapped(s, "body", s.HTTP().BodyData)
	}
	if len(s.HTTP().Query) > 0 {
		c.Query = map[string]*chain.Mapped{}
		for k, q := range s.HTTP().Query {
			c.Query[k] = v.Mapped(s, "query", q)
		}
	}
}
