package basic

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
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/proc"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// A script step runs a script of the file's scripts: library (mcp-flowgate's
// script executor) like a cli step runs a program: the body is written to
// a private file that its interpreter (its #! line's, else bash) reads,
// with the step's args after it; FLOWGATE_SCRIPT_SUBJECT and
// FLOWGATE_SCRIPT_HASH tell it what it is.
func init() {
	run.Register(chain.KindScript, run.Runner{
		Run: func(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			out, err := runScript(ctx, a)
			var ee *executor.ExitError
			if errors.As(err, &ee) {
				ee.Name = "script " + ScriptOf(s).Subject // not its interpreter
			}
			return run.ExitCode(s, out, err)
		},
		Plan: func(v run.PlanView, s *chain.Step, p *record.PlannedStep) {
			sc, _ := v.Script(s)
			words := []string{"script", ScriptOf(s).Subject}
			if sc != nil {
				words = append(words, "("+sc.Interpreter()+")")
			}
			for _, a := range s.C().Args {
				if a.JSONPath != nil {
					words = append(words, a.Raw)
					continue
				}
				words = append(words, chain.ShellQuote(v.Keep(a.Template)))
			}
			p.Action = strings.Join(words, " ")
		},
		// a script whose interpreter is not on this machine is refused
		// before anything runs
		Admit: func(l *run.Local, c *chain.Chain, s *chain.Step) error {
			sc, err := l.Script(c, s)
			if err != nil {
				return nil // preflightScript said so
			}
			if _, err := exec.LookPath(sc.Interpreter()); err != nil {
				return &response.PreflightError{Kind: response.BadCall, File: c.File, Pos: s.At("subject"), Step: s.ID,
					Msg: fmt.Sprintf("script %s runs with %s, which is not found on this machine (PATH)", ScriptOf(s).Subject, sc.Interpreter())}
			}
			return nil
		},
	})
}

// runScript writes the step's script to a file only this user can read
// and runs it by its interpreter.
func runScript(ctx context.Context, a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	lib, err := a.Script()
	if err != nil {
		return run.Outcome{}, run.Permanent(err)
	}
	f, err := os.CreateTemp("", "chainrun-script-*")
	if err != nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("writing script %s: %v", ScriptOf(s).Subject, err))
	}
	path := f.Name()
	defer os.Remove(path)
	_, err = f.WriteString(lib.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("writing script %s: %v", ScriptOf(s).Subject, err))
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
		env = map[string]chain.Arg{}
	}
	env["FLOWGATE_SCRIPT_SUBJECT"] = chain.Arg{Template: chain.Literal(lib.Subject), Raw: lib.Subject}
	env["FLOWGATE_SCRIPT_HASH"] = chain.Arg{Template: chain.Literal(lib.Hash), Raw: lib.Hash}
	return proc.RunCommand(ctx, a, command, args, nil, env, s.C().Cwd)
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
