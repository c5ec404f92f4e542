package chain

import (
	"reflect"
	"strings"
)

// CLIFields configure a cli (or shell) step: one program with its
// arguments, or a script for sh -c.
type CLIFields struct {
	Command string            `yaml:"command" doc:"The program of a cli step (no shell); its arguments go in args."`
	Args    []string          `yaml:"args" doc:"Arguments of command, passed as they are; $.input.x is a JSONPath into the run context."`
	Run     string            `yaml:"run" doc:"A script for sh -c; interpolated values never run as code."`
	Env     map[string]string `yaml:"env" doc:"Environment variables added for the command."`
	Cwd     string            `yaml:"cwd" doc:"Directory to run in, relative to where chainrun was started."`
}

var cliKind = kindUnit{
	kind:    KindCLI,
	aliases: []Kind{KindShell},
	body:    reflect.TypeFor[CLIFields](),
	check:   checkCLI,
	compile: compileCLI,
}

func checkCLI(v *validator, s *Step) {
	switch {
	case s.Command == "" && s.Run == "":
		v.d.errorf(s.Pos, "%s: a %s step needs command (with args) or run (a script)", s.subject(), s.Type)
	case s.Command != "" && s.Run != "":
		v.d.errorf(s.At("run"), "%s: set command or run, not both", s.subject())
	case s.Run != "" && len(s.Args) > 0:
		v.d.errorf(s.At("args"), "%s: args go with command; a run script takes its values by interpolation", s.subject())
	case s.Command != "" && len(s.Args) == 0 && strings.ContainsAny(strings.TrimSpace(s.Command), " \t"):
		v.d.errorf(s.At("command"), "%s: command %q holds spaces: command is one program (no shell), so put its arguments in args, or use run for a shell script", s.subject(), s.Command)
	}
}

func compileCLI(v *validator, s *Step, c *Compiled) {
	c.Command = v.template(s, "command", s.Command)
	c.Run = v.template(s, "run", s.Run)
	c.Cwd = v.template(s, "cwd", s.Cwd)
	for _, a := range s.Args {
		c.Args = append(c.Args, v.arg(s, "args", a))
	}
	c.Env = v.templates(s, "env", s.Env)
}
