package executor

import (
	"bytes"
	"io"
)

// capture collects one output stream of a child through a pipe into a
// bounded buffer: at most MaxCapture bytes are kept, the rest is counted
// and dropped, so a child printing without end never grows chainrun's
// memory. (Files are not used: a script that writes to /dev/stdout would
// reopen and truncate one.)
type capture struct {
	buf  capped
	live io.Writer
}

func newCapture(live io.Writer) *capture { return &capture{live: live} }

// writer is what the child's stream is connected to.
func (c *capture) writer() io.Writer {
	if c.live != nil {
		return io.MultiWriter(&c.buf, c.live)
	}
	return &c.buf
}

// text returns what was kept and whether more was written.
func (c *capture) text() (string, bool) { return c.buf.String(), c.buf.dropped > 0 }

// capped keeps the first MaxCapture bytes written to it.
type capped struct {
	buf     bytes.Buffer
	dropped int64
}
