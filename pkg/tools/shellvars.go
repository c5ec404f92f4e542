package tools

import (
	"slices"
	"strings"
)

// This file holds what a command may not set: the variables that decide
// which program a later name runs, and the builtins that set them.

// execVars are variables that change which program a name runs, or
// what a shell or the loader runs before it. BASH_CMDS is bash's table of
// where each name's program is, BASH_ALIASES its aliases.
var execVars = []string{"PATH", "ENV", "BASH_ENV", "IFS", "SHELLOPTS", "BASHOPTS", "PS4", "CDPATH", "BASH_CMDS", "BASH_ALIASES", "BASH_LOADABLES_PATH"}

// changesPrograms reports whether setting or unsetting the variable name
// (an array's element too: BASH_CMDS[ls]) changes what a program is: a
// shell without PATH looks for programs in the working directory.
func changesPrograms(name string) bool {
	name, _, _ = strings.Cut(name, "[")
	return slices.Contains(execVars, name) || strings.HasPrefix(name, "LD_")
}

// setters are the builtins that set, unset or bind variables their
// arguments name (wait -p too): printf only the one after -v, the others
// any.
var setters = []string{"export", "readonly", "declare", "typeset", "local", "read", "mapfile", "readarray", "getopts", "unset", "let", "printf", "wait"}

// setsProgramVariable says why an argument tok of the command begun by
// words may change what a later name runs (a setter of PATH, of a name
// the shell finds only when it runs, or a name reference, which sets a
// variable named elsewhere), or "".
func setsProgramVariable(words []string, tok shellToken) string {
	prog := words[0]
	if (prog == "test" || prog == "[") && words[len(words)-1] == "-v" {
		if tok.expanded || codeSubscript(tok.text) {
			return prog + " -v of " + tok.text + ": an array element's subscript, which the shell evaluates as code"
		}
		return ""
	}
	if !slices.Contains(setters, prog) {
		return ""
	}
	name := tok.text
	if prog == "printf" {
		prev := words[len(words)-1]
		switch {
		case prev == "-v":
		case strings.HasPrefix(name, "-v") && len(name) > 2 && len(words) == 1:
			name = name[2:]
		default:
			return ""
		}
	}
	if strings.HasPrefix(name, "-") && strings.ContainsAny(name, "ni") && slices.Contains([]string{"declare", "typeset", "local", "readonly"}, prog) {
		return prog + " " + name + ": a name reference (which sets a variable named elsewhere) or an integer (whose values the shell evaluates as code)"
	}
	name, _, _ = strings.Cut(name, "=")
	name = strings.TrimSuffix(name, "+")
	switch {
	case tok.nameExpanded:
		return prog + " of a variable named by an expansion"
	case changesPrograms(name):
		return prog + " of " + name + ", which changes what a program is"
	case codeSubscript(name):
		return prog + " of " + name + ": an array element's subscript, which the shell evaluates as code"
	}
	return ""
}

// codeSubscript reports whether name is an array element whose subscript
// is not a plain number: bash evaluates a subscript as arithmetic, and
// arithmetic runs the substitutions a variable's value holds.
func codeSubscript(name string) bool {
	_, sub, ok := strings.Cut(name, "[")
	if !ok {
		return false
	}
	sub = strings.TrimSuffix(sub, "]")
	return sub == "" || strings.Trim(sub, "0123456789") != ""
}
