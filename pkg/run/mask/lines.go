package mask

import (
	"bytes"
	"io"
	"strings"
)

// LineEmitter cuts a step's output into step.log lines, sent in batches
// (each line ending in a newline): the lines each Write completes. A
// line too long for one is cut in pieces, masked before it is cut
// (Mask), and each piece ends at least hold bytes before what is
// buffered, so that no secret (of at most hold+1 bytes) is split between
// two pieces and shown in neither masked.
type LineEmitter struct {
	// Emit sends a batch of lines.
	Emit func(lines string)
	// Done, when set, is told at Flush how many lines and bytes were
	// streamed, if any.
	Done func(lines int, size int64)
	// buf is a line not ended yet; out the lines of a batch built line
	// by line.
	buf, out []byte
	// Mask, when set, masks the secrets of what is sent; Hold is one
	// less than the longest secret's length.
	Mask  func(string) string
	Hold  int
	lines int
	size  int64
}

// maxLogLine is the longest step.log line: a longer one (a minified file,
// a progress bar without newlines) is sent in pieces of this size, so
// --verbose costs the same per byte whatever the line length.
const maxLogLine = 64 << 10

// piece adds the first piece of a buffered line too long for one event
// to the batch, and reports whether it did (masking may leave less than
// a piece).
func (w *LineEmitter) piece() bool {
	if w.Mask == nil {
		w.add(w.buf[:maxLogLine])
		w.buf = append(w.buf[:0], w.buf[maxLogLine:]...)
		return true
	}
	// masked, the buffer holds no whole secret: one that would straddle
	// a cut this far from its end is still to come whole
	s := w.Mask(string(w.buf))
	if len(s) < maxLogLine {
		w.buf = append(w.buf[:0], s...)
		return false
	}
	cut := min(maxLogLine, len(s)-w.Hold)
	if cut < maxLogLine/2 { // a secret of half a piece: pieces stay pieces
		cut = maxLogLine
	}
	w.add([]byte(s[:cut]))
	w.buf = append(w.buf[:0], s[cut:]...)
	return true
}

// add adds a line to the batch being built.
func (w *LineEmitter) add(line []byte) {
	w.out = append(append(w.out, line...), '\n')
}

// ended adds the buffered line, which ended, to the batch: its pieces
// first when it is too long for one.
func (w *LineEmitter) ended() {
	for len(w.buf) > maxLogLine {
		if !w.piece() {
			break
		}
	}
	w.add(bytes.TrimRight(w.buf, "\r"))
	w.buf = w.buf[:0]
}

// Write sends the lines p completes. Only the new bytes are searched, so
// a long line arriving in many writes costs no more than a short one;
// and the whole lines of p, when none is too long and none ends in a CR
// (what a command printing many short lines writes), go as they are, in
// one batch, without a look at each.
func (w *LineEmitter) Write(p []byte) (int, error) {
	n := len(p)
	w.size += int64(n)
	if len(w.buf) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf = append(w.buf, p...)
			w.pieces()
			w.send()
			return n, nil
		}
		w.buf = append(w.buf, p[:i]...)
		w.ended()
		p = p[i+1:]
	}
	if j := bytes.LastIndexByte(p, '\n'); j >= 0 {
		whole := p[:j+1]
		if len(whole) <= maxLogLine && bytes.IndexByte(whole, '\r') < 0 {
			// with the line that came before, in one copy
			var b strings.Builder
			b.Grow(len(w.out) + len(whole))
			b.Write(w.out)
			b.Write(whole)
			w.batch(b.String())
			w.out = w.out[:0]
		} else {
			for len(whole) > 0 {
				i := bytes.IndexByte(whole, '\n')
				w.buf = append(w.buf, whole[:i]...)
				w.ended()
				whole = whole[i+1:]
			}
		}
		p = p[j+1:]
	}
	w.buf = append(w.buf, p...)
	w.pieces()
	w.send()
	return n, nil
}

// pieces adds the pieces of a line not ended yet and already too long.
func (w *LineEmitter) pieces() {
	for len(w.buf) >= maxLogLine {
		if !w.piece() {
			break
		}
	}
}

// send emits the batch built line by line, if it holds a line.
func (w *LineEmitter) send() {
	if len(w.out) > 0 {
		w.batch(string(w.out))
		w.out = w.out[:0]
	}
}

// batch emits lines, masked, counting them.
func (w *LineEmitter) batch(lines string) {
	if w.Mask != nil {
		lines = w.Mask(lines)
	}
	w.lines += strings.Count(lines, "\n")
	w.Emit(lines)
}

// Flush sends what is left of a last line without its newline, then the
// count of what was streamed.
func (w *LineEmitter) Flush() {
	if len(w.buf) > 0 {
		w.add(w.buf)
		w.buf = nil
	}
	w.send()
	if w.Done != nil && w.lines > 0 {
		w.Done(w.lines, w.size)
	}
}

// FlushLines flushes each writer that is a LineEmitter.
func FlushLines(ws ...io.Writer) {
	for _, w := range ws {
		if le, ok := w.(*LineEmitter); ok {
			le.Flush()
		}
	}
}
