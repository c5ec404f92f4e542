package executor

import (
	"io"
	"strings"
	"sync"
)

// capture collects one output stream of a child through a pipe into a
// bounded buffer: at most MaxCapture bytes are kept in memory, so a child
// printing without end never grows chainrun's memory. The whole stream
// goes to a spill file once it outgrows the buffer, when the command says
// where; otherwise the rest is counted and dropped. (The child never
// writes to a file directly: a script that writes to /dev/stdout would
// reopen and truncate one.)
type capture struct {
	buf  capped
	live io.Writer
}

func newCapture(live io.Writer, spill func() (io.WriteCloser, string, error)) *capture {
	return &capture{live: live, buf: capped{spill: spill}}
}

// writer is what the child's stream is written to. On Linux the waiting
// goroutine reads the pipe into it (streams_linux.go); elsewhere os/exec
// copies the pipe with io.Copy, which lets a writer with ReadFrom read the
// pipe itself: both kinds here do, through a pooled buffer, where io.Copy
// would allocate 32 KiB per stream per step.
func (c *capture) writer() io.Writer {
	if c.live != nil {
		return &tee{w: io.MultiWriter(&c.buf, c.live)}
	}
	return &c.buf
}

// copyBuffers are the buffers children's pipes are read through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// readThrough copies r into w through a pooled buffer.
func readThrough(w io.Writer, r io.Reader) (int64, error) {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	var n int64
	for {
		m, err := r.Read(*bp)
		if m > 0 {
			if _, werr := w.Write((*bp)[:m]); werr != nil {
				return n, werr
			}
			n += int64(m)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// tee is a writer to the buffer and the live view with ReadFrom.
type tee struct{ w io.Writer }

func (t *tee) Write(p []byte) (int, error) { return t.w.Write(p) }

// ReadFrom implements io.ReaderFrom.
func (t *tee) ReadFrom(r io.Reader) (int64, error) { return readThrough(t.w, r) }

// ReadFrom implements io.ReaderFrom.
func (c *capped) ReadFrom(r io.Reader) (int64, error) { return readThrough(c, r) }

// text returns what was kept and whether more was written.
func (c *capture) text() (string, bool) { return c.buf.String(), c.buf.dropped > 0 }

// finish closes the spill file, and says where the whole stream is and
// how long it was (empty when it fit in memory).
func (c *capture) finish() (path string, size int64, err error) {
	b := &c.buf
	if b.file != nil {
		// a full disk may only say so when the data is flushed
		if f, ok := b.file.(interface{ Sync() error }); ok && b.spillErr == nil {
			err = f.Sync()
		}
		if cerr := b.file.Close(); err == nil {
			err = cerr
		}
	}
	if b.spillErr != nil && err == nil {
		err = b.spillErr
	}
	return b.path, int64(b.buf.Len()) + b.dropped, err
}

// capped keeps the first MaxCapture bytes written to it; with spill, the
// whole stream also goes to the file spill opens once it outgrows that.
type capped struct {
	buf      pieces
	dropped  int64
	spill    func() (io.WriteCloser, string, error)
	file     io.WriteCloser
	path     string
	spillErr error
}

// pieces keeps a stream in fixed-size chunks and makes its text once, at
// its exact size: a growing buffer would allocate about three times the
// output (its doublings, then the copy String makes), which a run with
// many big outputs pays in peak memory.
type pieces struct {
	chunks []*[]byte
	n      int
}

// pieceSize is the size of one chunk; chunks go back to pool once the
// text is made, for the next stream.
const pieceSize = 64 << 10

var pool = sync.Pool{New: func() any {
	b := make([]byte, 0, pieceSize)
	return &b
}}

func (p *pieces) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if len(p.chunks) == 0 || len(*p.chunks[len(p.chunks)-1]) == pieceSize {
			p.chunks = append(p.chunks, pool.Get().(*[]byte))
		}
		last := p.chunks[len(p.chunks)-1]
		k := min(len(b), pieceSize-len(*last))
		*last = append(*last, b[:k]...)
		b = b[k:]
	}
	p.n += n
	return n, nil
}

// Len is how many bytes were kept.
func (p *pieces) Len() int { return p.n }

// WriteTo writes what was kept to w.
func (p *pieces) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, c := range p.chunks {
		k, err := w.Write(*c)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// String makes the text and gives the chunks back: call it once, last.
func (p *pieces) String() string {
	var b strings.Builder
	b.Grow(p.n)
	for _, c := range p.chunks {
		b.Write(*c)
		*c = (*c)[:0]
		pool.Put(c)
	}
	p.chunks = nil
	return b.String()
}
