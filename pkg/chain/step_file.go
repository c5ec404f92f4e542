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
		c.Path = v.template(s, "path", s.Path)
		c.Cwd = v.template(s, "cwd", s.Cwd)
	},
}
