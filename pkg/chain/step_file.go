package chain

import "reflect"

// FileFields configure a file step: the file read becomes the output.
type FileFields struct {
	Path string `yaml:"path" doc:"File a file step reads."`
}

var fileKind = kindUnit{
	kind: KindFile,
	body: reflect.TypeFor[FileFields](),
	also: []string{"cwd"},
	check: func(v *validator, s *Step) {
		if s.Path == "" {
			v.d.errorf(s.Pos, "%s: path is required for a file step", s.subject())
		}
	},
	compile: func(v *validator, s *Step, c *Compiled) {
		// a path written as $.context.p (mcp-flowgate's form) is resolved
		// as an argument is, never read as a file of that name
		if a := v.arg(s, "path", s.Path); a.JSONPath != nil {
			c.PathJSON = &a
		} else {
			c.Path = a.Template
		}
		c.Cwd = v.template(s, "cwd", s.Cwd)
	},
}
