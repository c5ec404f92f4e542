package interp

import (
	"fmt"
	"strings"
)

// ShellVarPrefix names the environment variables that carry interpolated
// values into a run: script.
const ShellVarPrefix = "CHAINRUN_VALUE_"

// RenderShell prepares a run: script so that no value ever runs as code:
// each reference becomes a parameter expansion of an environment variable
// that holds the value ("${CHAINRUN_VALUE_1}"), and the values are returned
// as environment entries. The shell expands a variable but never parses
// its value, so quotes, ;, $( ) or backticks in a value are only data.
//
// Where the reference stands (scanShell) decides how: one quoted word
// outside quotes, a bare expansion inside "..." and in a heredoc's body,
// spliced into '...' as data. Inside $(( )), let or [[ -eq ]], which the
// shell evaluates as arithmetic, the value must be an integer. In a heredoc
// with a quoted delimiter, which is never expanded, the value goes in as it
// is and may not hold the delimiter line. A reference in a string that
// another program runs as code (sh -c '…', eval, ssh host '…', awk '…', a
// pipe into sh) is refused: validation reports it (CheckShell), and this
// refuses it again should a chain bypass validation.
func (t *Template) RenderShell(resolve Resolver, keep bool) (script string, env []string, err error) {
	sites := t.shellSites()
	var b strings.Builder
	n := 0
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := p.ref.value(resolve, keep)
		if err != nil {
			return "", nil, err
		}
		site := sites[n]
		n++
		name := fmt.Sprintf("%s%d", ShellVarPrefix, n)
		switch site.ctx {
		case ctxArith:
			if !isInteger(v) {
				return "", nil, fmt.Errorf("%s (script line %d) is read as arithmetic, so its value must be an integer, not %q", p.ref.Raw, site.line, ClipText(v, 40))
			}
		case ctxHereQuoted:
			for _, line := range strings.Split(v, "\n") {
				if strings.TrimLeft(line, "\t") == site.delim {
					return "", nil, fmt.Errorf("%s (script line %d): its value holds the line %q, which would end the heredoc", p.ref.Raw, site.line, site.delim)
				}
			}
		}
		if site.code != "" {
			return "", nil, fmt.Errorf("%s (script line %d) is inside what %s runs as code", p.ref.Raw, site.line, site.code)
		}
		env = append(env, name+"="+v)
		b.WriteString(site.ctx.expansion(name, v))
	}
	return b.String(), env, nil
}

// expansion is what stands in the script for a value held in variable
// name.
func (c shellCtx) expansion(name, value string) string {
	switch c {
	case ctxSingle:
		return `'"${` + name + `}"'`
	case ctxDouble, ctxHere, ctxArith:
		return "${" + name + "}"
	case ctxHereQuoted:
		return value
	}
	return `"${` + name + `}"`
}

// isInteger reports whether s is a decimal integer (spaces around it
// allowed): the only value arithmetic may read without running it.
func isInteger(s string) bool {
	s = strings.TrimSpace(s)
	return isDigits(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"))
}

// ClipText shortens a value for a message.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// shellSites is where each reference of the script stands, read once.
func (t *Template) shellSites() []shellSite {
	t.shellOnce.Do(func() { t.sites = scanShell(t) })
	return t.sites
}

// ShellProblem is a reference in a run: script that another program
// would run as code.
type ShellProblem struct {
	Ref     string
	Line    int
	Program string
}

// CheckShell finds the references of a run: script that stand where a
// program would run them as code.
func (t *Template) CheckShell() []ShellProblem {
	var out []ShellProblem
	refs := t.Refs()
	for i, site := range t.shellSites() {
		if site.code != "" {
			out = append(out, ShellProblem{Ref: refs[i].Raw, Line: site.line, Program: site.code})
		}
	}
	return out
}

// RenderShellForDisplay shows a script with its values inline (--dry-run),
// each written for where it stands so that the script shown, run as it
// is, sees what the real one sees: inside "..." a value escaped for
// double quotes, inside '...' as it is (a ' closing and reopening the
// quotes), in a heredoc's body as its lines read, and as a word quoted
// only when it needs it. It is never executed.
func (t *Template) RenderShellForDisplay(resolve Resolver) string {
	sites := t.shellSites()
	var b strings.Builder
	n := 0
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		var ctx shellCtx
		if n < len(sites) {
			ctx = sites[n].ctx
		}
		n++
		v, err := p.ref.value(resolve, false)
		if err != nil {
			b.WriteString(p.ref.Raw)
			continue
		}
		b.WriteString(ctx.shown(v))
	}
	return b.String()
}

// shown is a value as a script shown to a reader holds it where c is.
func (c shellCtx) shown(v string) string {
	switch c {
	case ctxDouble:
		return doubleEscaper.Replace(v)
	case ctxHere:
		return hereEscaper.Replace(v)
	case ctxSingle:
		return strings.ReplaceAll(v, "'", `'\''`)
	case ctxHereQuoted, ctxArith:
		return v
	}
	return ShellQuote(v)
}

// doubleEscaper escapes what "..." reads: $, `, \ and "; hereEscaper
// what a plain heredoc's body reads, where a " is a ".
var (
	doubleEscaper = strings.NewReplacer(`\`, `\\`, `$`, `\$`, "`", "\\`", `"`, `\"`)
	hereEscaper   = strings.NewReplacer(`\`, `\\`, `$`, `\$`, "`", "\\`")
)
