package executor

import (
	"bytes"
	"io"
	"os"
)

// capture collects one output stream of a child. When nothing streams the
// output live, the child writes straight into an unlinked temporary file:
// no pipe, no copying goroutine, no wait for a grandchild that keeps the
// pipe open, and no memory held for output beyond what is read back.
// Streaming (--verbose) goes through a pipe into a bounded buffer.
type capture struct {
	file *os.File
	buf  *capped
	live io.Writer
}

func newCapture(live io.Writer) (*capture, error) {
	if live != nil {
		return &capture{buf: &capped{}, live: live}, nil
	}
	f, err := anonymousFile()
	if err != nil {
		// no usable temp space: fall back to a pipe
		return &capture{buf: &capped{}}, nil
	}
	return &capture{file: f}, nil
}

// writer is what the child's stream is connected to.
func (c *capture) writer() io.Writer {
	if c.file != nil {
		return c.file
	}
	if c.live != nil {
		return io.MultiWriter(c.buf, c.live)
	}
	return c.buf
}

// text returns the first MaxCapture bytes and whether more was written.
func (c *capture) text() (string, bool) {
	if c.file == nil {
		return c.buf.String(), c.buf.dropped > 0
	}
	size, err := c.file.Seek(0, io.SeekCurrent)
	if err != nil {
		return "", false
	}
	n := min(size, MaxCapture)
	data := make([]byte, n)
	read, _ := c.file.ReadAt(data, 0)
	return string(data[:read]), size > MaxCapture
}

// tempFile is an unlinked temporary file: the open descriptor keeps the
// data until it is closed.
func tempFile() (*os.File, error) {
	f, err := os.CreateTemp("", "chainrun-out-*")
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name())
	return f, nil
}

func (c *capture) close() {
	if c.file != nil {
		_ = c.file.Close()
	}
}

// capped keeps the first MaxCapture bytes written to it.
type capped struct {
	buf     bytes.Buffer
	dropped int64
}
