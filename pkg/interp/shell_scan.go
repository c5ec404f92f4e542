package interp

import (
	"strings"
)

// shellCtx is how the shell reads a reference's place in a run: script,
// which decides how its value is put there.
type shellCtx int

const (
	// ctxWord is a place outside quotes: the value goes in as one quoted
	// word, "${V}".
	ctxWord shellCtx = iota
	// ctxDouble is inside "...": ${V}, expanded, never parsed.
	ctxDouble
	// ctxSingle is inside '...', which the shell keeps as it is: the value
	// is spliced in as data ('"${V}"').
	ctxSingle
	// ctxArith is inside $(( )), (( )), let, [[ -eq ]] or ${…}: the shell
	// evaluates it as arithmetic, so the value must be an integer.
	ctxArith
	// ctxHereQuoted is the body of a heredoc with a quoted delimiter
	// (<<'END'), which the shell never expands: the value goes in as it
	// is, and may not hold the delimiter line.
	ctxHereQuoted
	// ctxHere is the body of a heredoc with a plain delimiter: ${V},
	// expanded, never parsed.
	ctxHere
	// ctxComment is inside a comment: nothing reads it.
	ctxComment
)

// shellSite is where one reference of a script stands.
type shellSite struct {
	ctx shellCtx
	// line is the script line it is on, from 1.
	line int
	// delim is the delimiter of the heredoc it is in (ctxHereQuoted).
	delim string
	// code, when set, names the program that would run the value as code
	// (sh -c, eval, ssh, awk, a shell reading a pipe): such a use is an
	// error, since no quoting protects a value from a second parser.
	code string
}

// shellWord is one word of a simple command: its text with quotes removed
// (a reference stands as \x00), and the references in it.
type shellWord struct {
	text strings.Builder
	refs []int
}

// shellCmd is one simple command being read, with the heredocs that
// belong to it.
type shellCmd struct {
	words   []*shellWord
	cur     *shellWord
	heredoc []int // references in the bodies of its heredocs and here-strings
	// input marks the word being read as a here-string (<<<): it feeds
	// the command's input, it is not an argument.
	input bool
	// redirect marks the word being read as a redirection's target.
	redirect bool
}

func (c *shellCmd) word() *shellWord {
	if c.cur == nil {
		c.cur = &shellWord{}
	}
	return c.cur
}

func (c *shellCmd) endWord() {
	switch {
	case c.cur == nil:
	case c.input:
		c.heredoc = append(c.heredoc, c.cur.refs...)
		c.input = false
	case c.redirect:
		c.redirect = false
	default:
		c.words = append(c.words, c.cur)
	}
	c.cur = nil
}

// frame is one level of nesting: a command context (the script, a $( )
// or ` `), a quote, an arithmetic expression or a ${ } expansion.
type frame struct {
	kind byte // 'c' command, '\'' single, '"' double, '`' backtick, 'a' arithmetic, '{' parameter
	cmd  *shellCmd
	// pipeline holds the commands of the current pipeline, for the
	// check that no value is piped into a shell.
	pipeline []*shellCmd
	// depth counts the parentheses open inside arithmetic; in ${ } it is
	// 1 in a subscript or offset, 2 in the word after an operator
	depth int
}

// shellScanner follows a script's quoting and commands and reports, for
// each reference, its shellSite. It reads the script as the POSIX shell
// (and bash) would, without running anything; where it cannot tell, it
// errs towards calling a place code.
type shellScanner struct {
	sites   []shellSite
	stack   []*frame
	line    int
	pending []heredoc // heredocs whose bodies start on the next line
	nrefs   int
}

type heredoc struct {
	delim  string
	quoted bool
	strip  bool // <<- strips leading tabs
	cmd    *shellCmd
}

// scanShell returns the site of every reference of t, in order.
func scanShell(t *Template) []shellSite {
	sc := &shellScanner{line: 1}
	sc.push('c')
	// the script as one text, references as \x00
	var text strings.Builder
	for _, p := range t.parts {
		if p.ref != nil {
			text.WriteByte(0)
			continue
		}
		text.WriteString(strings.ReplaceAll(p.lit, "\x00", ""))
	}
	sc.scan(text.String())
	for len(sc.stack) > 0 {
		sc.pop()
	}
	return sc.sites
}

func (sc *shellScanner) top() *frame { return sc.stack[len(sc.stack)-1] }

func (sc *shellScanner) push(kind byte) {
	f := &frame{kind: kind}
	if kind == 'c' || kind == '`' {
		f.cmd = &shellCmd{}
	}
	sc.stack = append(sc.stack, f)
}

func (sc *shellScanner) pop() {
	f := sc.top()
	if f.cmd != nil {
		sc.endCommand(f, true)
	}
	sc.stack = sc.stack[:len(sc.stack)-1]
}

// cmd is the innermost command being read.
func (sc *shellScanner) cmd() *shellCmd {
	for i := len(sc.stack) - 1; i >= 0; i-- {
		if c := sc.stack[i].cmd; c != nil {
			return c
		}
	}
	return nil
}

// ref records a reference at the current place.
func (sc *shellScanner) ref(ctx shellCtx) {
	i := sc.nrefs
	sc.nrefs++
	sc.sites = append(sc.sites, shellSite{ctx: ctx, line: sc.line})
	if ctx == ctxComment {
		return
	}
	if c := sc.cmd(); c != nil {
		w := c.word()
		w.text.WriteByte(0)
		w.refs = append(w.refs, i)
	}
}

// endCommand analyses a finished simple command; a pipeline ends too
// unless the command was followed by |.
func (sc *shellScanner) endCommand(f *frame, pipelineEnds bool) {
	f.cmd.endWord()
	if len(f.cmd.words) > 0 || len(f.cmd.heredoc) > 0 {
		f.pipeline = append(f.pipeline, f.cmd)
		sc.judge(f.cmd)
	}
	if pipelineEnds {
		sc.judgePipeline(f.pipeline)
		f.pipeline = nil
	}
	f.cmd = &shellCmd{}
}

func (sc *shellScanner) scan(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			sc.newline(s, &i)
			continue
		}
		f := sc.top()
		switch f.kind {
		case '\'':
			switch c {
			case '\'':
				sc.pop()
			case 0:
				sc.ref(ctxSingle)
			default:
				sc.cmd().word().text.WriteByte(c)
			}
		case '"':
			switch {
			case c == '"':
				sc.pop()
			case c == '\\' && i+1 < len(s) && s[i+1] != '\n':
				i++
				sc.cmd().word().text.WriteByte(s[i])
			case c == 0:
				sc.ref(ctxDouble)
			default:
				if !sc.dollar(s, &i) {
					sc.cmd().word().text.WriteByte(c)
				}
			}
		case 'a':
			switch c {
			case '(':
				f.depth++
			case ')':
				if f.depth > 0 {
					f.depth--
				} else if i+1 < len(s) && s[i+1] == ')' {
					i++
					sc.pop()
				}
			case 0:
				sc.ref(ctxArith)
			}
		case '{':
			switch {
			case c == '}':
				sc.pop()
			case c == 0 && f.depth == 2:
				// the word of ${name:-word} and its kin: expanded, never
				// parsed
				sc.ref(ctxDouble)
			case c == 0:
				// the name, a [subscript] or :offset, which bash reads
				// as arithmetic
				sc.ref(ctxArith)
			case f.depth == 0 && (c == '[' || c == ':' && i+1 < len(s) && strings.IndexByte("-=+?", s[i+1]) < 0):
				f.depth = 1
			case f.depth == 1 && c == ']':
				f.depth = 0
			case f.depth == 0 && strings.IndexByte(":-=+?#%/^,", c) >= 0:
				f.depth = 2
			}
		default: // a command context: the script, $( ) or ` `
			sc.command(s, &i)
		}
	}
}

// dollar opens $( ), $(( )) or ${ } at s[*i]; false when s[*i] opens none.
func (sc *shellScanner) dollar(s string, i *int) bool {
	c := s[*i]
	if c == '`' {
		sc.push('`')
		return true
	}
	if c != '$' || *i+1 >= len(s) {
		return false
	}
	switch {
	case strings.HasPrefix(s[*i:], "$(("):
		*i += 2
		sc.push('a')
	case s[*i+1] == '(':
		*i++
		sc.push('c')
		sc.top().kind = '('
	case s[*i+1] == '{':
		*i++
		sc.push('{')
	default:
		return false
	}
	return true
}

// command reads one byte of a command context.
func (sc *shellScanner) command(s string, i *int) {
	f := sc.top()
	c := s[*i]
	cmd := f.cmd
	atWordStart := cmd.cur == nil
	switch {
	case c == 0:
		sc.ref(ctxWord)
	case c == ' ' || c == '\t':
		cmd.endWord()
	case c == '\\' && *i+1 < len(s):
		*i++
		if s[*i] != '\n' {
			cmd.word().text.WriteByte(s[*i])
		}
	case c == '#' && atWordStart:
		for *i+1 < len(s) && s[*i+1] != '\n' {
			*i++
			if s[*i] == 0 {
				sc.ref(ctxComment)
			}
		}
	case c == '\'':
		cmd.word()
		sc.push('\'')
	case c == '"':
		cmd.word()
		sc.push('"')
	case c == '`' && f.kind == '`':
		sc.pop()
	case c == ')' && f.kind == '(':
		sc.pop()
	case c == '(' && atWordStart && *i+1 < len(s) && s[*i+1] == '(' && len(cmd.words) == 0:
		*i++
		sc.push('a')
	case c == ';' || c == '&' || c == '(' || c == ')' || c == '{' && atWordStart || c == '}' && atWordStart:
		sc.endCommand(f, true)
	case c == '|':
		if *i+1 < len(s) && s[*i+1] == '|' {
			*i++
			sc.endCommand(f, true)
		} else {
			sc.endCommand(f, false)
		}
	case c == '<' && strings.HasPrefix(s[*i:], "<<<"):
		// a here-string feeds its word to the command's input
		cmd.endWord()
		*i += 2
		sc.hereString(s, i)
	case c == '<' && strings.HasPrefix(s[*i:], "<<"):
		cmd.endWord()
		*i += 2
		sc.heredocStart(s, i)
	case c == '>' || c == '<':
		// a redirection: a file descriptor before it, and its target
		// after it, are not arguments
		if cmd.cur != nil && isDigits(cmd.cur.text.String()) && len(cmd.cur.refs) == 0 {
			cmd.cur = nil
		}
		cmd.endWord()
		for *i+1 < len(s) && (s[*i+1] == '>' || s[*i+1] == '&' || s[*i+1] == '|') {
			*i++
		}
		if *i+1 < len(s) && s[*i+1] >= '0' && s[*i+1] <= '9' && s[*i] == '&' {
			return // >&2: no target word
		}
		cmd.redirect = true
	case c == '$' || c == '`':
		cmd.word()
		if !sc.dollar(s, i) {
			cmd.word().text.WriteByte(c)
		}
	default:
		cmd.word().text.WriteByte(c)
	}
}
