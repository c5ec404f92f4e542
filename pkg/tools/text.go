package tools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// sniffLen is how much of a file is looked at to tell text from binary.
const sniffLen = 8 << 10

// binary reports whether data (a file's first bytes) looks binary: it
// holds a NUL byte, which text files do not.
func binary(head []byte) bool {
	return bytes.IndexByte(head[:min(len(head), sniffLen)], 0) >= 0
}

// lineReader reads a file a line at a time keeping at most keep bytes of
// each, so that a file with one enormous line never fills memory.
type lineReader struct {
	r    *bufio.Reader
	keep int
	buf  []byte
}

func newLineReader(r io.Reader, keep int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), keep: keep}
}

// sniff returns the first bytes of the file without consuming them.
func (l *lineReader) sniff() []byte {
	head, _ := l.r.Peek(sniffLen)
	return head
}

// next returns the next line without its newline (at most keep bytes of
// it, valid only until the next call) and whether some of it was dropped;
// io.EOF when no line is left. A last line without a newline counts.
func (l *lineReader) next() ([]byte, bool, error) {
	l.buf = l.buf[:0]
	total := 0
	for {
		frag, err := l.r.ReadSlice('\n')
		ended := err == nil
		if ended {
			frag = frag[:len(frag)-1]
		}
		total += len(frag)
		if room := l.keep - len(l.buf); room > 0 {
			l.buf = append(l.buf, frag[:min(room, len(frag))]...)
		}
		switch {
		case ended:
			return l.buf, total > l.keep, nil
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			if total == 0 {
				return nil, false, io.EOF
			}
			return l.buf, total > l.keep, nil
		default:
			return nil, false, err
		}
	}
}

// cutLine makes a line valid UTF-8 and cuts it to max characters, ending
// it with marker when anything was cut (cut says more was already dropped
// while reading).
func cutLine(line []byte, cut bool, max int, marker string) string {
	s := strings.ToValidUTF8(string(line), "\uFFFD")
	if utf8.RuneCountInString(s) > max {
		n := 0
		for i := range s {
			if n == max {
				s = s[:i]
				break
			}
			n++
		}
		cut = true
	}
	if cut {
		s += marker
	}
	return s
}
