package jsonstream

import (
	"io"
	"unicode/utf8"
)

// text writes s as a JSON string (writeText) to e's output.
func (e *encoder) text(s string) {
	if e.err == nil {
		e.err = writeText(e.w, s)
	}
}

// AppendString appends s to b as a JSON string, escaped exactly as
// encoding/json escapes it: for encoders written by hand (an event line)
// that must give json.Marshal's bytes without its reflection.
func AppendString(b []byte, s string) []byte {
	a := appender{b}
	_ = writeText(&a, s)
	return a.b
}

// appender is a byte slice to write to.
type appender struct{ b []byte }

func (a *appender) WriteByte(c byte) error { a.b = append(a.b, c); return nil }

func (a *appender) WriteString(s string) (int, error) {
	a.b = append(a.b, s...)
	return len(s), nil
}

// textWriter is where writeText writes.
type textWriter interface {
	io.ByteWriter
	io.StringWriter
}

// writeText writes s as a JSON string, escaped exactly as encoding/json
// escapes it (HTML characters included), straight from s: the runs that
// need no escape are written as they are, so a string of any size costs
// no memory of its own. w's errors must be sticky (a bufio.Writer's are):
// only the last write's is returned.
func writeText(w textWriter, s string) error {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			w.WriteString(s[start:i])
			w.WriteByte('\\')
			switch b {
			case '\\', '"':
				w.WriteByte(b)
			case '\b':
				w.WriteByte('b')
			case '\f':
				w.WriteByte('f')
			case '\n':
				w.WriteByte('n')
			case '\r':
				w.WriteByte('r')
			case '\t':
				w.WriteByte('t')
			default:
				w.WriteString("u00")
				w.WriteByte(hex[b>>4])
				w.WriteByte(hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
		case c == '\u2028' || c == '\u2029':
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.WriteString(s[start:])
	_, err := w.WriteString(`"`)
	return err
}

const hex = "0123456789abcdef"
