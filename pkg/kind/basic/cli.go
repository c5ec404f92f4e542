package basic

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"

	yaml "go.yaml.in/yaml/v4"
)

// CLIFields configure a cli (or shell) step: one program with its
// arguments, or a script for sh -c.
type CLIFields struct {
	Command string `yaml:"command" doc:"The program of a cli step (no shell); its arguments go in args."`
	Run     string `yaml:"run" doc:"A script for sh -c; interpolated values never run as code."`
	// argv are the arguments of a command written as a list, before args.
	argv []string
}

func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindCLI,
		Order:   20,
		Aliases: []chain.Kind{chain.KindShell},
		Body:    reflect.TypeFor[CLIFields](),
		Also:    []string{"args", "env", "cwd", "treatNonZeroAsFailure", "connection", chain.KeyField},
		Decode:  map[string]chain.KeyDecoder{"command": decodeArgv},
		Schema:  map[string]any{"command": chain.StringOrList()},
		Check:   checkCLI,
		Compile: compileCLI,
	})
}

// decodeArgv reads command: [program, arg…], mcp-flowgate's argv form:
// the program, and arguments that go before the step's args (added when
// the step is checked, as args may be written after command).
func decodeArgv(d *yamlpos.Diags, s *chain.Step, v *yaml.Node, prefix string) bool {
	list, isList := yamlpos.TextList(v)
	if !isList {
		return false
	}
	if len(list) == 0 {
		d.Errorf(yamlpos.Of(v), "%scommand: the list is empty: its first item is the program", prefix)
		return true
	}
	f := chain.Own[CLIFields](s)
	f.Command, f.argv = list[0], list[1:]
	return true
}

func checkCLI(v chain.Checker, s *chain.Step) {
	if f := CLI(s); len(f.argv) > 0 {
		p := chain.Own[chain.ProcessFields](s)
		p.Args, f.argv = append(f.argv, p.Args...), nil
	}
	if s.HTTP().Connection != "" {
		useConnection(v, s)
		if CLI(s).Command == "" && CLI(s).Run == "" {
			return // the connection is missing, as reported: it gives the command
		}
	}
	switch {
	case CLI(s).Command == "" && CLI(s).Run == "":
		v.Errorf(s.Pos, "%s: a %s step needs command (with args) or run (a script)", s.Subject(), s.Type)
	case CLI(s).Command != "" && CLI(s).Run != "":
		v.Errorf(s.At("run"), "%s: set command or run, not both", s.Subject())
	case CLI(s).Run != "" && len(s.Process().Args) > 0:
		v.Errorf(s.At("args"), "%s: args go with command; a run script takes its values by interpolation", s.Subject())
	case CLI(s).Command != "" && len(s.Process().Args) == 0 && strings.ContainsAny(strings.TrimSpace(CLI(s).Command), " \t"):
		v.Errorf(s.At("command"), "%s: command %q holds spaces: command is one program (no shell), so put its arguments in args, or use run for a shell script", s.Subject(), CLI(s).Command)
	}
}

// useConnection gives a cli step the program of the cli connection it
// names (mcp-flowgate): the connection's command, its args before the
// step's, its env under the step's, its workingDirectory unless the step
// sets cwd.
func useConnection(v chain.Checker, s *chain.Step) {
	c := v.Connection(s, chain.ConnCLI)
	if c == nil {
		return
	}
	if CLI(s).Command != "" || CLI(s).Run != "" {
		v.Errorf(s.At("connection"), "%s: connection %q gives the command: set connection or command/run, not both", s.Subject(), s.HTTP().Connection)
		return
	}
	chain.Own[CLIFields](s).Command = c.Command
	chain.Own[chain.ProcessFields](s).Args = append(slices.Clone(c.Args), s.Process().Args...)
	if len(c.Env) > 0 {
		env := maps.Clone(c.Env)
		maps.Copy(env, s.Process().Env)
		chain.Own[chain.ProcessFields](s).Env = env
	}
	if s.Workdir().Cwd == "" {
		chain.Own[chain.WorkdirFields](s).Cwd = c.WorkingDirectory
	}
}

func compileCLI(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	noNUL(v, s, "command", "command", CLI(s).Command)
	noNUL(v, s, "run", "run", CLI(s).Run)
	for _, a := range s.Process().Args {
		noNUL(v, s, "args", "args", a)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Process().Env)) {
		noNUL(v, s, "env", "env."+k, s.Process().Env[k])
	}
	c.Command = v.Template(s, "command", CLI(s).Command)
	c.Run = v.ShellScript(s, "run", CLI(s).Run)
	c.Cwd = v.Template(s, "cwd", s.Workdir().Cwd)
	for _, a := range s.Process().Args {
		c.Args = append(c.Args, v.Arg(s, "args", a))
	}
	c.Env = v.EnvArgs(s, s.Process().Env)
}

// CLI is the step's CLIFields, a shared zero value when it has none (read
// only; write through Own).
func CLI(s *chain.Step) *CLIFields { return chain.Part[CLIFields](s) }

// noNUL refuses a NUL byte (YAML's "\0") in what becomes a command line
// or an environment variable: no process can be given one, so the step
// could only fail when it starts.
func noNUL(v chain.Checker, s *chain.Step, at, field, text string) {
	if strings.IndexByte(text, 0) >= 0 {
		v.Errorf(s.At(at), "step %q: %s holds a NUL byte (\\0), which no command line or environment variable can carry", s.ID, field)
	}
}
