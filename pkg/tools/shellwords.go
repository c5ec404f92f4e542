package tools

import (
	"errors"
	"strings"
)

// simpleCommands reads a shell command as a list of simple commands, each
// its words with quotes taken off, the program first (assignments before
// it and redirections left out). It reads only what it can be sure of:
// anything that would make the shell decide a program at run time (a
// substitution, a variable, pattern or brace in a program's place), a
// group or subshell, a keyword, a here-document, process substitution or
// an unclosed quote is an error naming it.
func simpleCommands(src string) ([][]string, error) {
	l := &shellLexer{src: src}
	var out [][]string
	var words []string
	redirect := false
	end := func() error {
		if redirect {
			return errors.New("a redirection without its file")
		}
		if len(words) > 0 {
			out = append(out, words)
		}
		words = nil
		return nil
	}
	for {
		tok, err := l.next()
		if err != nil {
			return nil, err
		}
		switch tok.kind {
		case tokEnd:
			return out, end()
		case tokSeparator:
			if err := end(); err != nil {
				return nil, err
			}
		case tokRedirect, tokDescriptor:
			// ">& 2>&1 x": the shell takes 2 for the first one's file
			if redirect {
				return nil, errors.New("a redirection without its file")
			}
			redirect = tok.kind == tokRedirect
		case tokWord:
			switch {
			case redirect:
				redirect = false
			case len(words) == 0 && tok.assignment:
				if name, _, _ := strings.Cut(tok.text, "="); changesPrograms(strings.TrimSuffix(name, "+")) {
					return nil, errors.New("an assignment to " + name + ", which changes what a program is")
				}
			case len(words) == 0:
				if why := tok.unsureProgram(); why != "" {
					return nil, errors.New(why)
				}
				words = append(words, tok.text)
			default:
				if why := setsProgramVariable(words, tok); why != "" {
					return nil, errors.New(why)
				}
				words = append(words, tok.text)
			}
		}
	}
}

type tokKind int

const (
	tokEnd tokKind = iota
	tokWord
	tokSeparator // ; & && | || |& newline
	tokRedirect  // < > >> >| <> &> &>> >& <& with or without a descriptor
	// tokDescriptor is a redirection to a descriptor (2>&1, >&-): no
	// file follows it.
	tokDescriptor
)

// shellToken is a word (its text with quotes taken off, and what in it
// the shell would expand) or an operator.
type shellToken struct {
	kind                          tokKind
	text                          string
	assignment                    bool
	expanded, pattern, brace, raw bool
	// nameExpanded: an expansion comes before the word's first =, in
	// what a setter (read, export) takes for a variable's name.
	nameExpanded bool
}

// shellKeywords start compound commands; as a program they are refused.
var shellKeywords = []string{"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
	"function", "select", "time", "coproc", "[[", "]]", "!", "{", "}"}

// unsureProgram says why a word cannot be taken as the program it names.
func (t shellToken) unsureProgram() string {
	switch {
	case t.expanded:
		return "a variable in a program's place"
	case t.pattern:
		return "a pattern in a program's place"
	case t.brace:
		return "a brace in a program's place"
	case !t.raw:
		for _, k := range shellKeywords {
			if t.text == k {
				return "the keyword " + k
			}
		}
	}
	return ""
}

type shellLexer struct {
	src string
	i   int
}

func (l *shellLexer) peek(k int) byte {
	if l.i+k < len(l.src) {
		return l.src[l.i+k]
	}
	return 0
}

// next reads the next token.
func (l *shellLexer) next() (shellToken, error) {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t':
			l.i++
		case c == '\\' && l.peek(1) == '\n':
			l.i += 2
		case c == '#':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		default:
			return l.token()
		}
	}
	return shellToken{kind: tokEnd}, nil
}

func (l *shellLexer) token() (shellToken, error) {
	c := l.src[l.i]
	switch c {
	case '\n', ';':
		l.i++
		return shellToken{kind: tokSeparator}, nil
	case '&', '|':
		if c == '&' && l.peek(1) == '>' {
			l.i += 2
			if l.peek(0) == '>' {
				l.i++
			}
			return shellToken{kind: tokRedirect}, nil
		}
		l.i++
		if l.peek(0) == c || c == '|' && l.peek(0) == '&' {
			l.i++
		}
		return shellToken{kind: tokSeparator}, nil
	case '(', ')':
		return shellToken{}, errors.New("a subshell or group")
	case '<', '>':
		return l.redirect()
	}
	if c >= '0' && c <= '9' {
		j := l.i
		for j < len(l.src) && l.src[j] >= '0' && l.src[j] <= '9' {
			j++
		}
		if j < len(l.src) && (l.src[j] == '<' || l.src[j] == '>') {
			l.i = j
			return l.redirect()
		}
	}
	return l.word()
}

// redirect reads a redirection operator; its file is the next word.
func (l *shellLexer) redirect() (shellToken, error) {
	op := l.src[l.i]
	l.i++
	switch n := l.peek(0); {
	case n == '(':
		return shellToken{}, errors.New("process substitution")
	case op == '<' && n == '<':
		return shellToken{}, errors.New("a here-document")
	case n == '>' || n == '|' || op == '<' && n == '>':
		l.i++
	case n == '&':
		l.i++
		if l.peek(0) == '-' {
			// >&- closes, whatever follows: >&-touch runs touch
			l.i++
			return shellToken{kind: tokDescriptor}, nil
		}
		if d := l.peek(0); d >= '0' && d <= '9' {
			start := l.i
			for l.peek(0) >= '0' && l.peek(0) <= '9' {
				l.i++
			}
			if l.peek(0) == '-' { // >&2- moves the descriptor
				l.i++
			}
			if e := l.peek(0); e == 0 || strings.IndexByte(" \t\n;&|<>()", e) >= 0 {
				return shellToken{kind: tokDescriptor}, nil
			}
			// >&1set: the shell reads the whole word, a file's name
			l.i = start
		}
	}
	return shellToken{kind: tokRedirect}, nil
}

// word reads one word, taking its quotes off.
func (l *shellLexer) word() (shellToken, error) {
	t := shellToken{kind: tokWord}
	var b strings.Builder
	nameEnd := -1 // where an assignment's name ends, when the word starts with one
	for l.i < len(l.src) {
		c := l.src[l.i]
		if strings.IndexByte(" \t\n;&|<>()", c) >= 0 {
			break
		}
		switch c {
		case '\\':
			if l.peek(1) == '\n' {
				// a line continuation is gone before the shell reads
				// words: it quotes nothing (A\<newline>=1 is A=1)
				l.i += 2
				continue
			}
			t.raw = true
			l.i++
			if l.i < len(l.src) {
				b.WriteByte(l.src[l.i])
			}
			l.i++
			continue
		case '\'':
			t.raw = true
			j := strings.IndexByte(l.src[l.i+1:], '\'')
			if j < 0 {
				return t, errors.New("an unclosed quote")
			}
			b.WriteString(l.src[l.i+1 : l.i+1+j])
			l.i += j + 2
			continue
		case '"':
			t.raw = true
			if err := l.doubleQuoted(&t, &b); err != nil {
				return t, err
			}
			continue
		case '`':
			return t, errors.New("a command substitution")
		case '$':
			if err := l.dollar(&t, &b); err != nil {
				return t, err
			}
			continue
		case '*', '?', '[':
			t.pattern = true
		case '{', '}':
			t.brace = true
		case '=':
			// NAME= and NAME+= (appending) are assignments
			if nameEnd < 0 && !t.raw && isName(strings.TrimSuffix(b.String(), "+")) {
				nameEnd = b.Len()
			}
		}
		b.WriteByte(c)
		l.i++
	}
	t.text = b.String()
	t.assignment = nameEnd > 0
	return t, nil
}

// doubleQuoted reads a "…" part of a word.
func (l *shellLexer) doubleQuoted(t *shellToken, b *strings.Builder) error {
	l.i++
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch c {
		case '"':
			l.i++
			return nil
		case '\\':
			if n := l.peek(1); strings.IndexByte("$`\"\\\n", n) >= 0 && n != 0 {
				if n != '\n' {
					b.WriteByte(n)
				}
				l.i += 2
				continue
			}
		case '`':
			return errors.New("a command substitution")
		case '$':
			if err := l.dollar(t, b); err != nil {
				return err
			}
			continue
		}
		b.WriteByte(c)
		l.i++
	}
	return errors.New("an unclosed quote")
}

// dollar reads a $ expansion: a parameter ($NAME, $1, $?) is marked as
// expanded; $(…), ${…}, $'…' and $"…" are refused.
func (l *shellLexer) dollar(t *shellToken, b *strings.Builder) error {
	n := l.peek(1)
	switch {
	case n == '(' || n == '{':
		return errors.New("a substitution or expansion ($" + string(n) + ")")
	case n == '\'' || n == '"':
		return errors.New("$-quoting")
	case n == '[':
		return errors.New("an arithmetic expansion ($[)")
	case n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z':
		l.i++
		for c := l.peek(0); c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'; c = l.peek(0) {
			l.i++
		}
		t.expanded = true
		t.nameExpanded = t.nameExpanded || !strings.Contains(b.String(), "=")
		return nil
	case n != 0 && strings.IndexByte("0123456789?#@*$!-", n) >= 0:
		l.i += 2
		t.expanded = true
		t.nameExpanded = t.nameExpanded || !strings.Contains(b.String(), "=")
		return nil
	}
	b.WriteByte('$')
	l.i++
	return nil
}

// isName reports whether s is a shell variable's name.
func isName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
