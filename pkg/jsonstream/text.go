package jsonstream

import (
	"bufio"
	"unicode/utf8"
)

// text writes s as a JSON string (writeText) to e's output.
func (e *encoder) text(s string) {
	if e.err == nil {
		e.err = writeText(e.w, s)
	}
}

// writeText writes s as a JSON string, escaped exactly as encoding/json
// escapes it (HTML characters included), straight from s: the runs that
// need no escape are written as they are, so a string of any size costs
// no memory of its own.
func writeText(w *bufio.Writer, s string) error {
	w.WriteByte('"')
	for i := 0; ; {
		at, esc, size := nextEscape(s, i)
		w.WriteString(s[i:at])
		if size == 0 {
			break
		}
		w.WriteString(esc)
		i = at + size
	}
	_, err := w.WriteString(`"`)
	return err
}

// AppendString appends s to b as a JSON string, escaped as writeText
// escapes it: for encoders written by hand (an event line) that must give
// json.Marshal's bytes without its reflection.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; ; {
		at, esc, size := nextEscape(s, i)
		b = append(b, s[i:at]...)
		if size == 0 {
			break
		}
		b = append(b, esc...)
		i = at + size
	}
	return append(b, '"')
}

// nextEscape finds the next character of s from i that encoding/json
// escapes: where it is, its escape and its length in s (len(s), "" and 0
// when there is none).
func nextEscape(s string, i int) (at int, esc string, size int) {
	for i < len(s) {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			switch b {
			case '\\':
				return i, `\\`, 1
			case '"':
				return i, `\"`, 1
			case '\b':
				return i, `\b`, 1
			case '\f':
				return i, `\f`, 1
			case '\n':
				return i, `\n`, 1
			case '\r':
				return i, `\r`, 1
			case '\t':
				return i, `\t`, 1
			case '<':
				return i, `\u003c`, 1
			case '>':
				return i, `\u003e`, 1
			case '&':
				return i, `\u0026`, 1
			}
			return i, controls[6*b : 6*b+6], 1
		}
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && n == 1:
			return i, `\ufffd`, 1
		case c == '\u2028':
			return i, `\u2028`, n
		case c == '\u2029':
			return i, `\u2029`, n
		}
		i += n
	}
	return len(s), "", 0
}

// controls are the escapes of the bytes 0 to 31, six bytes each.
const controls = "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\u0008\\u0009\\u000a\\u000b\\u000c\\u000d\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
