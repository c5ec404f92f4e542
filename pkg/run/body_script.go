package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
			sc, _ := v.x.l.scriptOf(v.x.c, s)
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
			sc, err := l.scriptOf(c, s)
			if err != nil {
				return nil // preflightScript said so
			}
			if _, err := exec.LookPath(sc.Interpreter()); err != nil {
				return &PreflightError{Kind: BadCall, File: c.File, Pos: s.At("subject"), Step: s.ID,
					Msg: fmt.Sprintf("script %s runs with %s, which is not found on this machine (PATH)", s.Subject, sc.Interpreter())}
			}
			return nil
		},
	})
}

// scriptOf is the script a script step runs: its own file's, else one
// the engine's resolver finds in another file's scripts:.
func (l *Local) scriptOf(c *chain.Chain, s *chain.Step) (*chain.Script, error) {
	return scriptIn(c, s, l.scripts)
}

func scriptIn(c *chain.Chain, s *chain.Step, r ScriptResolver) (*chain.Script, error) {
	return scriptBySubject(c, s.Subject, r)
}

// scriptBySubject is the script of that subject: c's file's, else one r
// finds in another file's scripts:.
func scriptBySubject(c *chain.Chain, subject string, r ScriptResolver) (*chain.Script, error) {
	if sc := c.Scripts[subject]; sc != nil {
		return sc, nil
	}
	if r == nil {
		return nil, fmt.Errorf("script %s is not in the scripts: library of %s, and no chains directory is open to find it in", subject, c.File)
	}
	return r(subject, c.File)
}

// preflightScript checks, before anything runs, that a script step's
// script is in its file's scripts: or another's. One found nowhere is
// pending (pending.go) when the file has no library of its own, as
// mcp-flowgate's capabilities leave their scripts to their repository's.
func preflightScript(c *chain.Chain, s *chain.Step, r Resolvers) error {
	err := findScript(c, s.Subject, "kind: script", r.Scripts)
	if err == nil {
		return nil
	}
	pe := &PreflightError{Kind: Pending, File: c.File, Pos: s.At("subject"), Step: s.ID, Who: s.Who(), Msg: err.Error()}
	if len(c.Scripts) > 0 {
		// a file with its own library is its own: a subject nothing
		// holds is a mistake in it, not one left to where it runs
		pe.Kind = BadCall
		return pe
	}
	return r.deferred(pe)
}

// findScript says, when no scripts: library holds the subject, which
// were looked in; what names what refers to it.
func findScript(c *chain.Chain, subject, what string, r ScriptResolver) error {
	_, err := scriptBySubject(c, subject, r)
	var nf *chain.NotFoundError
	if errors.As(err, &nf) {
		known := slices.Sorted(maps.Keys(c.Scripts))
		err = fmt.Errorf("script %q (%s) is in no scripts: library: not its own file's%s, nor one of %s%s", subject, what, ownScripts(known), nf.Dir,
			chain.DidYouMean(subject, append(known, nf.Known...)))
	}
	return err
}

func ownScripts(known []string) string {
	if len(known) == 0 {
		return " (it declares none)"
	}
	return " (" + strings.Join(known, ", ") + ")"
}

// script writes the step's script to a file only this user can read and
// runs it by its interpreter.
func (x *execution) script(ctx context.Context, s *chain.Step, sc scope) (outcome, error) {
	lib, err := x.l.scriptOf(x.c, s)
	if err != nil {
		return outcome{}, &permanentError{err}
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
		env = map[string]chain.Arg{}
	}
	env["FLOWGATE_SCRIPT_SUBJECT"] = chain.Arg{Template: chain.Literal(lib.Subject), Raw: lib.Subject}
	env["FLOWGATE_SCRIPT_HASH"] = chain.Arg{Template: chain.Literal(lib.Hash), Raw: lib.Hash}
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
