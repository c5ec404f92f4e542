package chain

import (
	"maps"
	"reflect"
	"slices"
	"strings"
)

// CLIFields configure a cli (or shell) step: one program with its
// arguments, or a script for sh -c.
type CLIFields struct {
	Command string            `yaml:"command" doc:"The program of a cli step (no shell); its arguments go in args."`
	Args    []string          `yaml:"args" doc:"Arguments of command, passed as they are; $.input.x is a JSONPath into the run context."`
	Run     string            `yaml:"run" doc:"A script for sh -c; interpolated values never run as code."`
	Env     map[string]string `yaml:"env" doc:"Environment variables added for the command."`
	// TreatNonZeroAsFailure false makes a nonzero exit a value (a
	// transition's output mapping reads it as $.output.exitCode).
	TreatNonZeroAsFailure *bool `yaml:"treatNonZeroAsFailure" doc:"false: a nonzero exit is a value, not a failure (a transition's output reads it as $.output.exitCode). Default true."`
}

func init() {
	Register(Unit{
		Kind:    KindCLI,
		Order:   20,
		Aliases: []Kind{KindShell},
		Body:    reflect.TypeFor[CLIFields](),
		Also:    []string{"cwd", "connection", keyField},
		Check:   checkCLI,
		Compile: compileCLI,
	})
}

func checkCLI(v Checker, s *Step) {
	if s.HTTP().Connection != "" {
		useConnection(v, s)
		if CLI(s).Command == "" && CLI(s).Run == "" {
			return // the connection is missing, as reported: it gives the command
		}
	}
	switch {
	case CLI(s).Command == "" && CLI(s).Run == "":
		v.Errorf(s.Pos, "%s: a %s step needs command (with args) or run (a script)", s.subject(), s.Type)
	case CLI(s).Command != "" && CLI(s).Run != "":
		v.Errorf(s.At("run"), "%s: set command or run, not both", s.subject())
	case CLI(s).Run != "" && len(CLI(s).Args) > 0:
		v.Errorf(s.At("args"), "%s: args go with command; a run script takes its values by interpolation", s.subject())
	case CLI(s).Command != "" && len(CLI(s).Args) == 0 && strings.ContainsAny(strings.TrimSpace(CLI(s).Command), " \t"):
		v.Errorf(s.At("command"), "%s: command %q holds spaces: command is one program (no shell), so put its arguments in args, or use run for a shell script", s.subject(), CLI(s).Command)
	}
}

// useConnection gives a cli step the program of the cli connection it
// names (mcp-flowgate): the connection's command, its args before the
// step's, its env under the step's, its workingDirectory unless the step
// sets cwd.
func useConnection(v Checker, s *Step) {
	c := v.Connection(s, ConnCLI)
	if c == nil {
		return
	}
	if CLI(s).Command != "" || CLI(s).Run != "" {
		v.Errorf(s.At("connection"), "%s: connection %q gives the command: set connection or command/run, not both", s.subject(), s.HTTP().Connection)
		return
	}
	Own[CLIFields](s).Command = c.Command
	Own[CLIFields](s).Args = append(slices.Clone(c.Args), CLI(s).Args...)
	if len(c.Env) > 0 {
		env := maps.Clone(c.Env)
		maps.Copy(env, CLI(s).Env)
		Own[CLIFields](s).Env = env
	}
	if s.Workdir().Cwd == "" {
		Own[WorkdirFields](s).Cwd = c.WorkingDirectory
	}
}

func compileCLI(v Checker, s *Step, c *Compiled) {
	c.Command = v.Template(s, "command", CLI(s).Command)
	c.Run = v.ShellScript(s, "run", CLI(s).Run)
	c.Cwd = v.Template(s, "cwd", s.Workdir().Cwd)
	for _, a := range CLI(s).Args {
		c.Args = append(c.Args, v.Arg(s, "args", a))
	}
	c.Env = v.EnvArgs(s)
}

// shellScript compiles a run: script and refuses every reference that a
// program inside it would run as code (sh -c '…', eval, ssh host '…',
// awk '…', a pipe or heredoc into a shell): no quoting by the outer shell
// protects a value parsed a second time.
func (v *validator) shellScript(s *Step, field, text string) *Template {
	return v.checkShell(s, field, v.template(s, field, text))
}

// checkShell reports the references of a script that stand where a shell
// would run them as code.
func (v *validator) checkShell(s *Step, field string, t *Template) *Template {
	if t == nil {
		return nil
	}
	for _, p := range t.CheckShell() {
		v.d.Errorf(s.At(field), "%s: %s: %s (script line %d) is inside what %s runs as code, where a value would run too; pass it as data instead: an argument after the script (sh -c '… \"$1\" …' sh %s) or an environment variable (env: {NAME: \"%s\"}, then \"$NAME\")",
			s.subject(), field, p.Ref, p.Line, p.Program, p.Ref, p.Ref)
	}
	return t
}

// CLI is the step's CLIFields, a shared zero value when it has none (read
// only; write through Own).
func CLI(s *Step) *CLIFields { return Part[CLIFields](s) }
