package dotenv

import (
	"fmt"
	"strings"
)

// Var is one KEY=VALUE assignment of a file, with the line it begins on.
// Value is the value as written (quotes and escapes read); Read expands
// the variables in it, as Docker Compose does.
type Var struct {
	Key, Value string
	Line       int
	// template is the value as Compose's interpolation reads it (an
	// escaped \$ kept as $$), for a value that is expanded: unquoted or
	// double-quoted; "" and not expanded in single quotes.
	template string
	expand   bool
}

// SyntaxError is a line of a dotenv file that is no assignment, named by
// file and line so that an editor can jump to it.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// NothingRan marks the error as one from before anything ran (exit 2):
// files are read before a run's first step.
func (e *SyntaxError) NothingRan() bool { return true }

// Parse reads the assignments of a dotenv file's text, in order (name
// names the file in errors; an error names the line and key, never a
// value). The syntax is the one docker compose and
// python-dotenv share:
//
//	# a comment, and empty lines, are skipped
//	KEY=value             unquoted: trimmed; " #" starts a comment
//	export KEY=value      as a shell script writes it
//	KEY='literal'         nothing inside single quotes is special
//	KEY="a\nb"            \n \r \t \" \\ \$ are escapes; others stay
//	KEY="first
//	second"               quoted values may span lines
//
// Read expands ${OTHER}, $OTHER, ${OTHER:-default}, ${OTHER-default} and
// ${OTHER:?message} in unquoted and double-quoted values, as Docker
// Compose does (expand.go); Parse leaves them as written. A line with no
// '=', a name that is not letters, digits and '_', or a quote that is not
// closed is a *SyntaxError.
func Parse(name string, data []byte) ([]Var, error) {
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	p := &parser{file: name, rest: text, line: 1}
	var out []Var
	for p.rest != "" {
		v, ok, err := p.next()
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// parser walks a file's text, one assignment (or blank line or comment)
// at a time.
type parser struct {
	file string
	rest string
	line int
}

func (p *parser) fail(line int, format string, args ...any) error {
	return &SyntaxError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// takeLine removes the current line from rest and returns it.
func (p *parser) takeLine() string {
	line, rest, _ := strings.Cut(p.rest, "\n")
	p.rest = rest
	p.line++
	return line
}

// next reads one line (several, for a quoted value that spans them);
// ok is false for a blank line or a comment.
func (p *parser) next() (Var, bool, error) {
	at := p.line
	raw, _, _ := strings.Cut(p.rest, "\n")
	s := strings.TrimLeft(raw, " \t")
	if s == "" || s[0] == '#' {
		p.takeLine()
		return Var{}, false, nil
	}
	if rest, ok := strings.CutPrefix(s, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		s = strings.TrimLeft(rest, " \t")
	}
	key, value, found := strings.Cut(s, "=")
	key = strings.TrimRight(key, " \t")
	if !found {
		if w := leadingName(s); w != "" {
			return Var{}, false, p.fail(at, "the line that begins %q is not an assignment: write KEY=VALUE (the rest of the line is not shown)", w)
		}
		return Var{}, false, p.fail(at, "the line is not an assignment: write KEY=VALUE (it is not shown)")
	}
	if !ValidName(key) {
		if strings.ContainsAny(key, " \t:") {
			// more than a name: perhaps a value the '=' belongs to
			return Var{}, false, p.fail(at, "the text before '=' is not a variable name: use letters, digits and '_', not starting with a digit")
		}
		return Var{}, false, p.fail(at, "%q is not a variable name: use letters, digits and '_', not starting with a digit", key)
	}
	written := value
	value = strings.TrimLeft(value, " \t")
	if value != "" && (value[0] == '\'' || value[0] == '"') {
		// the value may go on past this line: read from the whole rest
		p.rest = p.rest[len(raw)-len(value):]
		v, tmpl, err := p.quoted(at, key, value[0])
		return Var{Key: key, Value: v, Line: at, template: tmpl, expand: value[0] == '"'}, err == nil, err
	}
	p.takeLine()
	v := unquoted(written)
	return Var{Key: key, Value: v, Line: at, template: v, expand: true}, true, nil
}

// leadingName is the variable name a line that is no assignment begins
// with, when a blank or ':' follows it ("API_TOKEN: …", "machine h …"):
// enough to find the line. A line that is one word is not named: it may
// be a value pasted alone. Nothing else of the line is ever shown, since
// its value was never registered to be masked.
func leadingName(s string) string {
	end := strings.IndexAny(s, " \t:")
	if end <= 0 || !ValidName(s[:end]) {
		return ""
	}
	return s[:end]
}

// unquoted is an unquoted value as written after the '=': up to a
// comment (a # after a space or tab), surrounding blanks trimmed.
func unquoted(v string) string {
	for i := 1; i < len(v); i++ {
		if v[i] == '#' && (v[i-1] == ' ' || v[i-1] == '\t') {
			v = v[:i]
			break
		}
	}
	return strings.Trim(v, " \t")
}

// quoted reads a quoted value from the start of rest (its opening quote
// q), across lines if need be, then checks that only blanks or a comment
// follow the closing quote. tmpl is the value for interpolation: the
// same, but an escaped \$ written $$ (Compose's literal $).
func (p *parser) quoted(at int, key string, q byte) (value, tmpl string, err error) {
	var b, t strings.Builder
	i := 1
	for ; i < len(p.rest) && p.rest[i] != q; i++ {
		c := p.rest[i]
		if c == '\n' {
			p.line++
		}
		if c == '\\' && q == '"' && i+1 < len(p.rest) {
			if e, ok := escapes[p.rest[i+1]]; ok {
				b.WriteByte(e)
				if e == '$' {
					t.WriteByte('$')
				}
				t.WriteByte(e)
				i++
				continue
			}
		}
		b.WriteByte(c)
		t.WriteByte(c)
	}
	if i >= len(p.rest) {
		return "", "", p.fail(at, "%s: the value's closing %c is missing", key, q)
	}
	p.rest = p.rest[i+1:]
	after := strings.TrimLeft(p.takeLine(), " \t")
	if after != "" && after[0] != '#' {
		return "", "", p.fail(p.line-1, "%s: text after the value's closing %c: quote the whole value", key, q)
	}
	return b.String(), t.String(), nil
}

// escapes are what a backslash means inside double quotes; any other
// backslash is kept as written (a Windows path stays one).
var escapes = map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', '"': '"', '\\': '\\', '$': '$'}

// ValidName reports whether k can be an environment variable's name that
// every shell accepts: letters, digits and _, not starting with a digit
// (what a dotenv file may set, and a chain test may mock).
func ValidName(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
