package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// Every file operation of the tools goes through an os.Root opened at the
// working directory: resolve (confine.go) names the file a model meant,
// following its links to say so, and the Root is what keeps each open,
// stat, write and directory walk inside, at the moment it happens — a link
// swapped for one pointing out between the two cannot lead anywhere else.

// Escapes reports an os.Root refusal: the path, or a link on it, leads
// out of the root (fsutil.Escapes, for the tools' callers).
func Escapes(err error) bool { return fsutil.Escapes(err) }

// fail words an error of an os.Root call on t for the model: an escape is
// an OutsideError; what names t is told as the model named it.
func (w *workspace) fail(err error, t target, doing string) error {
	switch {
	case Escapes(err):
		return &OutsideError{Path: t.given, Dir: w.root}
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", t.show)
	}
	return fmt.Errorf("cannot %s %s: %w", doing, t.show, bare(err))
}

// stat is os.Root.Stat of t.
func (w *workspace) stat(t target) (fs.FileInfo, error) { return w.fs.Stat(t.rel) }

// openText opens an existing regular file for the file tools, with
// messages that say what else it is. It opens without blocking, then
// checks what it opened, so a FIFO or a device is refused at once.
func (w *workspace) openText(t target) (*os.File, error) {
	f, err := fsutil.OpenRegularIn(w.fs, t.rel)
	var nr *fsutil.NotRegularError
	switch {
	case errors.As(err, &nr) && nr.Mode.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file; use Glob to list its files", t.show)
	case errors.As(err, &nr):
		// A FIFO or a device would block or never end.
		return nil, fmt.Errorf("%s is not a regular file", t.show)
	case err != nil:
		return nil, w.fail(err, t, "read")
	}
	return f, nil
}

// writeAtomic replaces t with data so that no reader ever sees half of
// it, keeping perm whatever the umask (an edited script stays
// executable; 0: a new file's 0666 less the umask): a temporary file
// beside it, renamed over it, both through the Root.
func (w *workspace) writeAtomic(t target, data []byte, perm fs.FileMode) error {
	return fsutil.WriteFileIn(w.fs, t.rel, data, perm)
}

// inside names the file at rel (relative to Dir, slash-separated, from a
// walk) when the Root can reach it: a symbolic link is followed only
// while it stays inside.
func (w *workspace) inside(rel string) (fs.FileInfo, bool) {
	fi, err := w.fs.Stat(filepath.FromSlash(rel))
	return fi, err == nil
}
