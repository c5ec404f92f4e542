package envfiles

import (
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// File is one file of a chain's dotenv: list, whose KEY=VALUE lines
// reach the chain's commands as environment variables. The chain format
// only names the files; the engine reads them when a run starts
// (package dotenv), so that a chain stays valid on a machine that lacks
// a developer's .env.
type File struct {
	// Path is relative to the chain file.
	Path string `yaml:"path" doc:"The file, relative to the chain file."`
	// Required false lets the file be missing (a developer's own
	// .env.local); a missing required file stops the run before it starts.
	Required *bool       `yaml:"required" doc:"false: the file may be missing (it is then skipped); by default a missing file stops the run before anything runs."`
	Pos      yamlpos.Pos `yaml:"-"`
}

// Optional reports whether the file may be missing.
func (f File) Optional() bool { return f.Required != nil && !*f.Required }

// Decode reads dotenv: a path, or a list of paths and
// {path, required} mappings.
func Decode(d *yamlpos.Diags, v *yaml.Node) []File {
	v = yamlpos.Deref(v)
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	var out []File
	for _, n := range items {
		n = yamlpos.Deref(n)
		f := File{Pos: yamlpos.Of(n)}
		switch {
		case n.Kind == yaml.ScalarNode && n.Tag != "!!null":
			f.Path = n.Value
		case n.Kind == yaml.MappingNode:
			yamlpos.DecodeChecked(d, n, "dotenv: ", yamlpos.KeysOf[File](), &f)
		default:
			d.Errorf(yamlpos.Of(n), "dotenv: write a file's path, or a list of paths and {path, required: false}")
			continue
		}
		if f.Path == "" {
			d.Errorf(yamlpos.Of(n), "dotenv: a file needs a path")
			continue
		}
		out = append(out, f)
	}
	return out
}
