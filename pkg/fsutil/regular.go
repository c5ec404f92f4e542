package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// Every file chainrun reads on a user's behalf (a chain, a test file, a
// cassette, a golden file, a dotenv or config file, an input file) is
// named by someone: it may be a FIFO nobody writes, a device or a
// directory. Opening a FIFO for reading blocks until a writer comes, in a
// system call no signal handler can interrupt, and a device's read may
// never end. So every such read opens without blocking (O_NONBLOCK, which
// changes nothing for a regular file), checks what it opened, and reads
// at most a bound: a path that names anything else is refused at once.

// NotRegularError is a path that names something other than a regular
// file: a directory, a FIFO, a socket or a device.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// TooLargeError is a regular file over the bound its reader sets.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most read from it", e.Path, size(e.Max))
}

// Kind names what a file that is not a regular one is, with its article:
// "a directory", "a FIFO (named pipe)".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// size is a bound as a person reads it.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// OpenRegular opens path for reading when it is a regular file; a FIFO,
// device, socket or directory is a *NotRegularError, returned at once.
// An error of the open itself is the *fs.PathError os gives (so
// errors.Is(err, fs.ErrNotExist) holds for a missing file).
func OpenRegular(path string) (*os.File, error) { return OpenFileRegular(path, os.O_RDONLY, 0) }

// OpenFileRegular is os.OpenFile(path, flag, perm) that refuses, at once,
// what is not a regular file: a FIFO opened for writing would wait for a
// reader just as one opened for reading waits for a writer.
func OpenFileRegular(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, notOpenable(err, path, func() (fs.FileInfo, error) { return os.Stat(path) })
	}
	return checkRegular(f, path)
}

// OpenRegularIn is OpenRegular of name inside root: a name or a link on
// it that leads out of root is refused by the root.
func OpenRegularIn(root *os.Root, name string) (*os.File, error) {
	return OpenFileRegularIn(root, name, os.O_RDONLY, 0)
}

// OpenFileRegularIn is OpenFileRegular of name inside root.
func OpenFileRegularIn(root *os.Root, name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := root.OpenFile(name, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, notOpenable(err, name, func() (fs.FileInfo, error) { return root.Stat(name) })
	}
	return checkRegular(f, name)
}

// notOpenable words an open's error: a socket cannot be opened at all,
// nor a FIFO for writing while nobody reads it (ENXIO), nor a directory
// for writing (EISDIR), which says less than what it is.
func notOpenable(err error, path string, stat func() (fs.FileInfo, error)) error {
	if errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EISDIR) {
		if fi, serr := stat(); serr == nil && !fi.Mode().IsRegular() {
			return &NotRegularError{Path: path, Mode: fi.Mode()}
		}
	}
	return err
}

// checkRegular keeps f when it is a regular file, else closes it.
func checkRegular(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, nil
}

// ReadRegular reads the regular file at path whole, refusing it (a
// *TooLargeError) when it holds more than max bytes.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAtMost(f, path, max)
}

// ReadRegularIn is ReadRegular of name inside root.
func ReadRegularIn(root *os.Root, name string, max int64) ([]byte, error) {
	f, err := OpenRegularIn(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAtMost(f, name, max)
}

// readAtMost reads f whole, up to max bytes.
func readAtMost(f *os.File, path string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return data, nil
}

// Escapes reports an os.Root refusal: the name, or a link on it, leads
// out of the root. os.Root has no sentinel for it, so its text is read
// here, in one place, for every confined path of chainrun.
func Escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes from parent")
}
