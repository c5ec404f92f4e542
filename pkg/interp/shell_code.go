package interp

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// Programs that run a string they are given as code. A value inside such
// a string would be parsed a second time, where no quoting by the outer
// shell protects it, so a reference there is an error: the value must
// reach the program as an environment variable or an argument.
//
// shellWords are those programs and their options, which the scan of
// shell code judges commands by. They are built the first time shell code
// is scanned: a command that reads no chain never needs them.
type shellWords struct {
	shells, programs, everyWord, remote, sshValued, arithOps map[string]bool
	scriptFlags                                              map[string][]string
}

var shellTables = sync.OnceValue(func() *shellWords {
	return &shellWords{
		// shells run the word after -c (sh -c 'script' arg0 args...: the
		// arguments after the script are data, the safe way to pass values).
		shells: names("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "fish", "busybox", "csh", "tcsh"),
		// scriptFlags are the options of interpreters whose next word is a
		// program.
		scriptFlags: map[string][]string{
			"python": {"-c"}, "python2": {"-c"}, "python3": {"-c"}, "pypy": {"-c"}, "pypy3": {"-c"},
			"perl": {"-e", "-E"}, "ruby": {"-e"}, "node": {"-e", "-p", "--eval", "--print"}, "nodejs": {"-e", "-p", "--eval", "--print"},
			"deno": {"eval"}, "php": {"-r"}, "lua": {"-e"}, "luajit": {"-e"}, "Rscript": {"-e"}, "R": {"-e"},
			"osascript": {"-e"}, "pwsh": {"-c", "-Command"}, "powershell": {"-c", "-Command"}, "su": {"-c"},
			"tclsh": {}, "jshell": {},
		},
		// programs take their first operand as a program (awk '{print}').
		programs: names("awk", "gawk", "mawk", "nawk"),
		// everyWord runs all its operands as one script.
		everyWord: names("eval", "watch"),
		// remote runs everything after its host as a remote shell's script.
		remote: names("ssh"),
		// sshValued are ssh's options that take a value.
		sshValued: names("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"),
		// arithOps make bash's [[ ]] evaluate both sides as arithmetic.
		arithOps: names("-eq", "-ne", "-lt", "-le", "-gt", "-ge"),
	}
})

func names(ns ...string) map[string]bool {
	m := make(map[string]bool, len(ns))
	for _, n := range ns {
		m[n] = true
	}
	return m
}

// judge marks the references of one simple command that stand where a
// program would run them as code, and those that bash evaluates as
// arithmetic (let, [[ -eq ]]).
func (sc *shellScanner) judge(cmd *shellCmd) {
	words := cmd.words
	if len(words) == 0 {
		return
	}
	tables := shellTables()
	first := words[0].text.String()
	switch first {
	case "let", "declare", "typeset", "local":
		if first == "let" || hasFlag(words, "-i") {
			for _, w := range words[1:] {
				sc.mark(w.refs, "", true)
			}
		}
	case "[[":
		for i, w := range words {
			if tables.arithOps[w.text.String()] {
				sc.mark(words[i-1].refs, "", true)
				if i+1 < len(words) {
					sc.mark(words[i+1].refs, "", true)
				}
			}
		}
	}
	// an evaluator may stand anywhere: after sudo, env, xargs, docker
	// exec, kubectl exec --, find -exec
	for i, w := range words {
		name := path.Base(w.text.String())
		switch {
		case tables.shells[name]:
			if j := scriptWord(words, i, func(f string) bool {
				return len(f) > 1 && f[0] == '-' && f[1] != '-' && strings.Contains(f, "c")
			}); j > 0 {
				sc.mark(words[j].refs, name+" -c", false)
			}
		case tables.scriptFlags[name] != nil:
			flags := tables.scriptFlags[name]
			if j := scriptWord(words, i, func(f string) bool { return slices.Contains(flags, f) }); j > 0 {
				sc.mark(words[j].refs, name+" "+words[j-1].text.String(), false)
			}
		case tables.programs[name]:
			if j := operand(words, i, names("-F", "-v", "-f")); j > 0 && !hasFlag(words[i:j], "-f") {
				sc.mark(words[j].refs, name, false)
			}
		case tables.everyWord[name]:
			for _, w := range words[i+1:] {
				sc.mark(w.refs, name, false)
			}
		case tables.remote[name]:
			if j := operand(words, i, tables.sshValued); j > 0 {
				for _, w := range words[j+1:] {
					sc.mark(w.refs, name, false)
				}
			}
		}
	}
}

// judgePipeline marks the references that reach, through a pipe or a
// heredoc, a program that runs its input as a script (… | sh, python <<END).
func (sc *shellScanner) judgePipeline(pipeline []*shellCmd) {
	for k, cmd := range pipeline {
		reader := stdinEvaluator(cmd.words)
		if reader == "" {
			continue
		}
		sc.mark(cmd.heredoc, reader+" (its input)", false)
		for _, before := range pipeline[:k] {
			for _, w := range before.words {
				sc.mark(w.refs, reader+" (piped into)", false)
			}
			sc.mark(before.heredoc, reader+" (piped into)", false)
		}
	}
}

// stdinEvaluator names a command that runs its standard input as code: a
// shell or an interpreter given no script, or ssh given no command.
func stdinEvaluator(words []*shellWord) string {
	tables := shellTables()
	for i, w := range words {
		name := path.Base(w.text.String())
		switch {
		case tables.shells[name], tables.scriptFlags[name] != nil && name != "su":
			rest := words[i+1:]
			if scriptWord(words, i, func(f string) bool {
				return f == "-c" || slices.Contains(tables.scriptFlags[name], f) || tables.shells[name] && len(f) > 1 && f[0] == '-' && f[1] != '-' && strings.Contains(f, "c")
			}) > 0 {
				return ""
			}
			for _, r := range rest {
				if t := r.text.String(); t == "-s" || t == "-" {
					return name
				}
				if !strings.HasPrefix(r.text.String(), "-") {
					return "" // a script file
				}
			}
			return name
		case tables.remote[name]:
			if j := operand(words, i, tables.sshValued); j > 0 && j == len(words)-1 {
				return name
			}
			return ""
		}
	}
	return ""
}

// scriptWord is the index of the word after the first option of
// words[i+1:] that isScript accepts (0: none).
func scriptWord(words []*shellWord, i int, isScript func(string) bool) int {
	for j := i + 1; j < len(words)-1; j++ {
		t := words[j].text.String()
		if isScript(t) {
			return j + 1
		}
		if !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			return 0 // operands from here: a script file and its arguments
		}
	}
	return 0
}

// operand is the index of the first word after words[i] that is not an
// option (valued takes the next word as its value); 0 when none.
func operand(words []*shellWord, i int, valued map[string]bool) int {
	for j := i + 1; j < len(words); j++ {
		t := words[j].text.String()
		switch {
		case valued[t]:
			j++
		case t == "--":
			if j+1 < len(words) {
				return j + 1
			}
			return 0
		case strings.HasPrefix(t, "-") && len(t) > 1:
		default:
			return j
		}
	}
	return 0
}

func hasFlag(words []*shellWord, flag string) bool {
	for _, w := range words {
		if w.text.String() == flag {
			return true
		}
	}
	return false
}

// mark records that the references idx run as code in program, or (arith)
// are read as arithmetic.
func (sc *shellScanner) mark(idx []int, program string, arith bool) {
	for _, i := range idx {
		switch {
		case arith:
			if sc.sites[i].ctx == ctxWord || sc.sites[i].ctx == ctxDouble {
				sc.sites[i].ctx = ctxArith
			}
		case sc.sites[i].code == "" && sc.sites[i].ctx != ctxComment:
			sc.sites[i].code = program
		}
	}
}
