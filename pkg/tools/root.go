package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Every file operation of the tools goes through an os.Root opened at the
// working directory: resolve (confine.go) names the file a model meant,
// following its links to say so, and the Root is what keeps each open,
// stat, write and directory walk inside, at the moment it happens — a link
// swapped for one pointing out between the two cannot lead anywhere else.

// Escapes reports an os.Root refusal: the path, or a link on it, leads
// out of the root. os.Root has no sentinel for it, so its text is read
// here, in one place, for every confined path of chainrun.
func Escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes from parent")
}

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
	f, err := w.fs.OpenFile(t.rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, w.fail(err, t, "read")
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, w.fail(err, t, "read")
	case fi.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s is a directory, not a file; use Glob to list its files", t.show)
	case !fi.Mode().IsRegular():
		// A FIFO or a device would block or never end.
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", t.show)
	}
	return f, nil
}

// writeAtomic replaces t with data so that no reader ever sees half of
// it, keeping perm whatever the umask (an edited script stays
// executable; 0: a new file's 0666 less the umask): a temporary file
// beside it, renamed over it, both through the Root.
func (w *workspace) writeAtomic(t target, data []byte, perm fs.FileMode) error {
	var r [6]byte
	_, _ = rand.Read(r[:])
	tmp := filepath.Join(filepath.Dir(t.rel), "."+filepath.Base(t.rel)+".tmp-"+hex.EncodeToString(r[:]))
	created := fs.FileMode(0o600)
	if perm == 0 {
		created = 0o666
	}
	f, err := w.fs.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, created)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && perm != 0 {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.fs.Rename(tmp, t.rel)
	}
	if err != nil {
		_ = w.fs.Remove(tmp)
	}
	return err
}

// inside names the file at rel (relative to Dir, slash-separated, from a
// walk) when the Root can reach it: a symbolic link is followed only
// while it stays inside.
func (w *workspace) inside(rel string) (fs.FileInfo, bool) {
	fi, err := w.fs.Stat(filepath.FromSlash(rel))
	return fi, err == nil
}
