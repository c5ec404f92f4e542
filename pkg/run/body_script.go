package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
)

// A script step runs a script of the file's scripts: library (mcp-flowgate's
// script executor) like a cli step runs a program: the body is written to
// a private file that its interpreter (its #! line's, else bash) reads,
// with the step's args after it; FLOWGATE_SCRIPT_SUBJECT and
// FLOWGATE_SCRIPT_HASH tell it what it is.
func init() {
	register(chain.KindScript, kind{
		run: func(x *execution, ctx context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			out, err := x.script(ctx, s, sc)
			var ee *executor.ExitError
			if errors.As(err, &ee) {
				ee.Name = "script " + s.Subject // not its interpreter
			}
			return exitValue(s, out, err)
		},
		plan: func(v planView, s *chain.Step, p *PlannedStep) {
			sc := v.x.c.Scripts[s.Subject]
			words := []string{"script", s.Subject}
			if sc != nil {
				words = append(words, "("+sc.Interpreter()+")")
			}
			for _, a := range s.C().Args {
				if a.JSONPath != nil {
					words = append(words, a.Raw)
					continue
				}
				words = append(words, chain.ShellQuote(v.keep(a.Template)))
			}
			p.Action = strings.Join(words, " ")
		},
		// a script whose interpreter is not on this machine is refused
		// before anything runs
		admit: func(l *Local, c *chain.Chain, s *chain.Step) error {
			sc := c.Scripts[s.Subject]
			if sc == nil {
				return nil
			}
			if _, err := exec.LookPath(sc.Interpreter()); err != nil {
				return &PreflightError{Kind: BadCall, File: c.File, Pos: s.At("subject"), Step: s.ID,
					Msg: fmt.Sprintf("script %s runs with %s, which is not found on this machine (PATH)", s.Subject, sc.Interpreter())}
			}
			return nil
		},
	})
}

// script writes the step's script to a file only this user can read and
// runs it by its interpreter.
func (x *execution) script(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	lib := x.c.Scripts[s.Subject]
	if lib == nil {
		return outcome{}, &permanentError{fmt.Errorf("script %s is not in the file's scripts: library", s.Subject)}
	}
	f, err := os.CreateTemp("", "chainrun-script-*")
	if err != nil {
		return outcome{}, &permanentError{fmt.Errorf("writing script %s: %v", s.Subject, err)}
	}
	path := f.Name()
	defer os.Remove(path)
	_, err = f.WriteString(lib.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return outcome{}, &permanentError{fmt.Errorf("writing script %s: %v", s.Subject, err)}
	}
	// the interpreter reads the file, which is never executed itself: no
	// exec of a file just written (ETXTBSY), no execute bit needed
	argv := interpreterArgv(lib.Body)
	command := chain.Literal(argv[0])
	var args []chain.Arg
	for _, a := range append(argv[1:], filepath.Clean(path)) {
		args = append(args, chain.Arg{Template: chain.Literal(a), Raw: a})
	}
	args = append(args, s.C().Args...)
	env := maps.Clone(s.C().Env)
	if env == nil {
		env = map[string]*chain.Template{}
	}
	env["FLOWGATE_SCRIPT_SUBJECT"] = chain.Literal(lib.Subject)
	env["FLOWGATE_SCRIPT_HASH"] = chain.Literal(lib.Hash)
	return x.command(ctx, s, sc, command, args, nil, env, s.C().Cwd)
}

// interpreterArgv is the command line of a script's #! (bash when it
// has none), to which the script's path is added.
func interpreterArgv(body string) []string {
	line, _, _ := strings.Cut(body, "\n")
	if fields := strings.Fields(strings.TrimPrefix(line, "#!")); strings.HasPrefix(line, "#!") && len(fields) > 0 {
		return fields
	}
	return []string{"bash"}
}
