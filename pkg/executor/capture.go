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
	f, err := pooledFile()
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

// close releases the capture. reuse says nothing else can still write to
// the file (the child's process group is empty), so it may serve the next
// command instead of being closed.
func (c *capture) close(reuse bool) {
	if c.file == nil {
		return
	}
	if reuse {
		recycleFile(c.file)
		return
	}
	_ = c.file.Close()
}

// filePool keeps emptied capture files for reuse: creating and destroying
// an anonymous file costs about a tenth of starting a small process.
var filePool = make(chan *os.File, 64)

func pooledFile() (*os.File, error) {
	select {
	case f := <-filePool:
		return f, nil
	default:
		return anonymousFile()
	}
}

func recycleFile(f *os.File) {
	if f.Truncate(0) != nil {
		_ = f.Close()
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		_ = f.Close()
		return
	}
	select {
	case filePool <- f:
	default:
		_ = f.Close()
	}
}

// capped keeps the first MaxCapture bytes written to it.
type capped struct {
	buf     bytes.Buffer
	dropped int64
}
