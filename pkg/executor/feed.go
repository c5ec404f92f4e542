package executor

import (
	"io"
	"os"
	"os/exec"
)

// FirstFeedFD is the file descriptor a command's first feed arrives on;
// the next ones follow (3, 4, …).
const FirstFeedFD = 3

// feeds are a command's Feeds on their way: the pipes' read ends go to the
// child, the write ends are written by this process once it started.
type feeds struct {
	readers, writers []*os.File
	values           []string
}

// openFeeds makes one pipe per value and hands their read ends to cmd.
func openFeeds(cmd *exec.Cmd, values []string) (*feeds, error) {
	f := &feeds{values: values}
	for range values {
		r, w, err := os.Pipe()
		if err != nil {
			f.close()
			return nil, err
		}
		f.readers, f.writers = append(f.readers, r), append(f.writers, w)
	}
	cmd.ExtraFiles = f.readers
	return f, nil
}

// start writes each value to its pipe, each on its own, once the child
// holds the read ends. A child that stops reading (it exited, or never
// reads a value) ends the write with a broken pipe, not a hang.
func (f *feeds) start() {
	for _, r := range f.readers {
		_ = r.Close()
	}
	f.readers = nil
	for i, w := range f.writers {
		go func(w *os.File, v string) {
			_, _ = io.WriteString(w, v)
			_ = w.Close()
		}(w, f.values[i])
	}
	f.writers = nil
}

// close releases pipes that were never started (the child did not run).
func (f *feeds) close() {
	for _, p := range append(f.readers, f.writers...) {
		_ = p.Close()
	}
	f.readers, f.writers = nil, nil
}
