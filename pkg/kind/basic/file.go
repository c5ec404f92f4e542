package basic

import (
	"reflect"

	"github.com/chainrun/chainrun/pkg/chain"
)

// FileFields configure a file step: the file read becomes the output.
type FileFields struct {
}

func init() {
	chain.Register(chain.Unit{
		Kind:  chain.KindFile,
		Order: 50,
		Body:  reflect.TypeFor[FileFields](),
		Also:  []string{"path", "cwd"},
		Check: func(v chain.Checker, s *chain.Step) {
			if s.Path().Path == "" {
				v.Errorf(s.Pos, "%s: path is required for a file step", s.Subject())
			}
		},
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			// a path written as $.context.p (mcp-flowgate's form) is resolved
			// as an argument is, never read as a file of that name
			if a := v.Arg(s, "path", s.Path().Path); a.JSONPath != nil {
				c.PathJSON = &a
			} else {
				c.Path = a.Template
			}
			c.Cwd = v.Template(s, "cwd", s.Workdir().Cwd)
		},
	})
}

// File is the step's FileFields, a shared zero value when it has none (read
// only; write through Own).
func File(s *chain.Step) *FileFields { return chain.Part[FileFields](s) }
