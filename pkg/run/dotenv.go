package run

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dotenv"
)

// WithDotenv reads these files (config dotenv, paths already resolved)
// when each run starts: their variables reach its commands, under the
// chain's own dotenv and the real environment.
func WithDotenv(files ...dotenv.File) Option { return func(l *Local) { l.dotenv = files } }

// WithDotenvRead tells fn the values of the dotenv files each run reads
// (the config's, its chain's, a called chain's) as it reads them, so that
// whoever writes down what a run sends (a test's cassette) can refuse the
// credentials among them, as it refuses the environment's.
func WithDotenvRead(fn func(vars map[string]string)) Option {
	return func(l *Local) { l.dotenvRead = fn }
}

// read reads dotenv files and tells dotenvRead their values.
func (l *Local) read(files []dotenv.File) (map[string]string, error) {
	vars, err := dotenv.Read(files)
	if err == nil && l.dotenvRead != nil && len(vars) > 0 {
		l.dotenvRead(vars)
	}
	return vars, err
}

// readDotenv reads the configured dotenv files, then the chain's (paths
// relative to the chain file; dir resolves a chain file named by a
// relative path), a later file's value winning. The values are the
// run's own: never put into this process's environment, nor saved.
func (l *Local) readDotenv(c *chain.Chain, dir string) (map[string]string, error) {
	files := slices.Clone(l.dotenv)
	files = append(files, chainDotenv(c, dir)...)
	if len(files) == 0 {
		return nil, nil
	}
	return l.read(files)
}

// chainDotenv are the files a chain's dotenv: names, as dotenv reads them.
func chainDotenv(c *chain.Chain, dir string) []dotenv.File {
	if len(c.Dotenv) == 0 {
		return nil
	}
	base := filepath.Dir(c.File)
	if !filepath.IsAbs(base) {
		base = filepath.Join(dir, base)
	}
	out := make([]dotenv.File, 0, len(c.Dotenv))
	for _, f := range c.Dotenv {
		path := f.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		out = append(out, dotenv.File{Path: path, Optional: f.Optional(), From: fmt.Sprintf("%s:%s", c.File, f.Pos)})
	}
	return out
}

// withDotenv is env with the dotenv values of a called chain's own files
// over its caller's.
func withDotenv(env, own map[string]string) map[string]string {
	if len(own) == 0 {
		return env
	}
	out := maps.Clone(env)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, own)
	return out
}

// getenv reads a variable as the run's commands see it: the engine's
// fixed variables (WithEnv), the real environment, else the run's dotenv
// files.
func (x *Execution) getenv(name string) (string, bool) {
	if v, ok := x.Engine.lookupEnv(name); ok {
		return v, true
	}
	v, ok := x.env[name]
	return v, ok
}

// environ is the environment of the run's commands: the dotenv
// variables the real environment does not set, then the real
// environment (with the engine's fixed variables in place), then extra.
func (x *Execution) environ(extra ...string) []string {
	inherited := x.Engine.environ()
	out := make([]string, 0, len(x.env)+len(inherited)+len(extra))
	for _, k := range slices.Sorted(maps.Keys(x.env)) {
		if _, set := x.Engine.lookupEnv(k); !set {
			out = append(out, k+"="+x.env[k])
		}
	}
	out = append(out, inherited...)
	return append(out, extra...)
}

// inheritEnv gives a nested run (a called chain, a workflow step's
// workflow) the caller's dotenv values, with those of its own file's
// dotenv over them when it comes from another file.
func (x *Execution) inheritEnv(sub *Execution) error {
	sub.setEnv(x.env)
	if sub.Chain.File == x.Chain.File {
		return nil
	}
	files := chainDotenv(sub.Chain, x.workDir())
	if len(files) == 0 {
		return nil
	}
	own, err := x.Engine.read(files)
	if err != nil {
		return err
	}
	sub.setEnv(withDotenv(x.env, own))
	return nil
}
