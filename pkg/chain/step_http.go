package chain

import (
	"reflect"
	"slices"
	"strings"
)

// HTTPFields configure an http step: one request, whose body is the
// output and whose status is OUTPUT_status. mcp-flowgate's rest executor
// is the same step: a connection: gives the base URL and headers, path
// the rest of the URL, query its parameters and a mapping body the JSON
// sent.
type HTTPFields struct {
	Method       string            `yaml:"method" doc:"HTTP method of an http step (default GET)."`
	URL          string            `yaml:"url" doc:"URL of an http step (or connection and path)."`
	Headers      map[string]string `yaml:"headers" doc:"HTTP headers of an http step."`
	Body         string            `yaml:"body" doc:"Request body of an http step: text, or a mapping sent as JSON whose $.context/$.arguments/$.workflow.input values are read when it runs."`
	FailOnStatus *bool             `yaml:"fail_on_status" doc:"false: a non-2xx status is a response, not a failure."`
	// Connection names one of the file's connections: a rest one for an
	// http step, a cli one for a cli step.
	Connection string         `yaml:"connection" doc:"One of the file's connections: a rest connection (its baseUrl and headers) for an http/rest step, a cli connection (its command) for a cli step."`
	Query      map[string]any `yaml:"query" doc:"URL query parameters of an http step; $.-values are read when it runs."`
	// BodyData is a body written as a mapping or list: sent as JSON.
	BodyData any `yaml:"-"`
}

func init() {
	Register(Unit{
		Kind:    KindHTTP,
		Order:   30,
		Aliases: []Kind{KindREST},
		Body:    reflect.TypeFor[HTTPFields](),
		Also:    []string{"path", KeyField},
		Check:   checkHTTP,
		Compile: CompileHTTP,
	})
}

func checkHTTP(v Checker, s *Step) {
	switch {
	case s.HTTP().Connection != "":
		if s.HTTP().URL != "" {
			v.Errorf(s.At("url"), "%s: url and connection: set one (a connection's baseUrl with path)", s.Subject())
		}
		v.Connection(s, ConnREST)
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
		Own[HTTPFields](s).Method = m
	}
}

func CompileHTTP(v Checker, s *Step, c *Compiled) {
	c.URL = v.Template(s, "url", s.HTTP().URL)
	c.Body = v.Template(s, "body", s.HTTP().Body)
	c.Headers = v.Templates(s, "headers", s.HTTP().Headers)
	if s.HTTP().BodyData != nil {
		c.BodyJSON = v.Mapped(s, "body", s.HTTP().BodyData)
	}
	if len(s.HTTP().Query) > 0 {
		c.Query = map[string]*Mapped{}
		for k, q := range s.HTTP().Query {
			c.Query[k] = v.Mapped(s, "query", q)
		}
	}
}

// StatusFails reports whether a response's status fails an http or
// webhook step: one outside success_status when the step lists them,
// else one outside 2xx unless fail_on_status is false.
func StatusFails(s *Step, status int) bool {
	if len(s.Success().SuccessStatus) > 0 {
		return !slices.Contains(s.Success().SuccessStatus, status)
	}
	return (status < 200 || status > 299) && (s.HTTP().FailOnStatus == nil || *s.HTTP().FailOnStatus)
}
