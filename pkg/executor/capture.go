package executor

import (
	"bytes"
	"io"
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

// writer is what the child's stream is connected to.
func (c *capture) writer() io.Writer {
	if c.live != nil {
		return io.MultiWriter(&c.buf, c.live)
	}
	return &c.buf
}

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
	buf      bytes.Buffer
	dropped  int64
	spill    func() (io.WriteCloser, string, error)
	file     io.WriteCloser
	path     string
	spillErr error
}
