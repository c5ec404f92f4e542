package chain

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
// as environment entries. The shell never parses a value, so a value with
// quotes, ;, $( ) or backticks is only ever data — even where the guess
// about quoting below is wrong (comments, heredocs, $( ) inside quotes),
// the worst outcome is word splitting, never execution.
//
// Where the reference stands decides the quoting of the expansion: as one
// word outside quotes, bare inside "...", and closing and reopening
// '...' around it inside single quotes.
func (t *Template) RenderShell(resolve Resolver, keep bool) (script string, env []string, err error) {
	var b strings.Builder
	state := shellPlain
	n := 0
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			state = state.scan(p.lit)
			continue
		}
		v, err := p.ref.value(resolve, keep)
		if err != nil {
			return "", nil, err
		}
		n++
		name := fmt.Sprintf("%s%d", ShellVarPrefix, n)
		env = append(env, name+"="+v)
		b.WriteString(state.expansion(name))
	}
	return b.String(), env, nil
}

// RenderShellForDisplay shows a script with its values inline, quoted for
// a reader (--dry-run); it is never executed.
func (t *Template) RenderShellForDisplay(resolve Resolver) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := p.ref.value(resolve, false)
		if err != nil {
			b.WriteString(p.ref.Raw)
			continue
		}
		b.WriteString(ShellQuote(v))
	}
	return b.String()
}

type shellState int

const (
	shellPlain shellState = iota
	shellSingle
	shellDouble
	shellComment
)

// scan follows the quoting state through literal script text. A comment
// (# at the start of a word) lasts to the end of its line.
func (s shellState) scan(text string) shellState {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch s {
		case shellComment:
			if c == '\n' {
				s = shellPlain
			}
		case shellPlain:
			switch c {
			case '\\':
				i++
			case '\'':
				s = shellSingle
			case '"':
				s = shellDouble
			case '#':
				if i == 0 || strings.IndexByte(" \t\n;&|(", text[i-1]) >= 0 {
					s = shellComment
				}
			}
		case shellSingle:
			if c == '\'' {
				s = shellPlain
			}
		case shellDouble:
			switch c {
			case '\\':
				i++
			case '"':
				s = shellPlain
			}
		}
	}
	return s
}

func (s shellState) expansion(name string) string {
	switch s {
	case shellSingle:
		return `'"${` + name + `}"'`
	case shellDouble:
		return "${" + name + "}"
	}
	return `"${` + name + `}"`
}
