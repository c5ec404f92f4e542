package chain

import (
	"reflect"
	"slices"
	"strings"
)

// HTTPFields configure an http step: one request, whose body is the
// output and whose status is OUTPUT_status.
type HTTPFields struct {
	Method       string            `yaml:"method" doc:"HTTP method of an http step (default GET)."`
	URL          string            `yaml:"url" doc:"URL of an http step."`
	Headers      map[string]string `yaml:"headers" doc:"HTTP headers of an http step."`
	Body         string            `yaml:"body" doc:"Request body of an http step."`
	FailOnStatus *bool             `yaml:"fail_on_status" doc:"false: a non-2xx status is a response, not a failure."`
}

var httpKind = kindUnit{
	kind:    KindHTTP,
	body:    reflect.TypeFor[HTTPFields](),
	check:   checkHTTP,
	compile: compileHTTP,
}

func checkHTTP(v *validator, s *Step) {
	if s.URL == "" {
		v.d.errorf(s.Pos, "%s: url is required for an http step", s.subject())
	}
	if s.Method != "" {
		m := strings.ToUpper(s.Method)
		if !slices.Contains([]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}, m) {
			v.d.errorf(s.At("method"), "%s: method %q is not an HTTP method", s.subject(), s.Method)
		}
		s.Method = m
	}
}

func compileHTTP(v *validator, s *Step, c *Compiled) {
	c.URL = v.template(s, "url", s.URL)
	c.Body = v.template(s, "body", s.Body)
	c.Headers = v.templates(s, "headers", s.Headers)
}
