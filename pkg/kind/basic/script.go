package basic

import "github.com/chainrun/chainrun/pkg/chain"

import "reflect"

// ScriptFields configure a script step (mcp-flowgate's `kind: script`
// executor): it runs a script of a scripts: library (its own file's, else
// another's), by its subject, like a cli step runs a program. Its args,
// env and treatNonZeroAsFailure are a cli step's.
type ScriptFields struct {
	Subject          string `yaml:"subject" doc:"The subject of the script a script step runs, from the file's scripts: library."`
	WorkingDirectory string `yaml:"workingDirectory" doc:"Where a script step runs (as cwd), relative to where chainrun was started."`
}

func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindScript,
		Order:   90,
		Body:    reflect.TypeFor[ScriptFields](),
		Also:    []string{"args", "env", "cwd", "treatNonZeroAsFailure", chain.KeyField},
		Check:   checkScript,
		Compile: compileScript,
		Script:  func(s *chain.Step) string { return ScriptOf(s).Subject },
	})
}

func checkScript(v chain.Checker, s *chain.Step) {
	if ScriptOf(s).Subject == "" {
		v.Errorf(s.Pos, "%s: subject is required for a script step (the script of the file's scripts: library it runs)", s.Subject())
		return
	}
	if ScriptOf(s).WorkingDirectory != "" && s.Workdir().Cwd != "" {
		v.Errorf(s.At("workingDirectory"), "%s: set workingDirectory or cwd, not both", s.Subject())
	}
	// a subject the file's own scripts: lacks is looked for in other
	// files' when the chain runs or is validated (run.CheckCalls)
}

func compileScript(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	dir, field := s.Workdir().Cwd, "cwd"
	if ScriptOf(s).WorkingDirectory != "" {
		dir, field = ScriptOf(s).WorkingDirectory, "workingDirectory"
	}
	c.Cwd = v.Template(s, field, dir)
	for _, a := range s.Process().Args {
		c.Args = append(c.Args, v.Arg(s, "args", a))
	}
	c.Env = v.EnvArgs(s, s.Process().Env)
}

// ScriptOf is the step's ScriptFields, a shared zero value when it has none (read
// only; write through Own).
func ScriptOf(s *chain.Step) *ScriptFields { return chain.Part[ScriptFields](s) }
