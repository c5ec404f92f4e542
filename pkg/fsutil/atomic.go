// Package fsutil writes files so that readers never see half of one: the
// data goes to a temporary file in the same directory, which is renamed
// over the target. Durable writes also reach the disk before they return.
// It also reads the files a user names so that a FIFO, a device or a
// directory is refused at once instead of blocking (regular.go), and
// writes inside an os.Root so that no link leads a write out.
// It imports nothing of this module.
package fsutil

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteFile replaces path with data atomically. When durable is true the
// file and its directory entry are flushed to disk (fsync) first, so that
// the data survives a crash the moment WriteFile returns.
func WriteFile(path string, data []byte, durable bool) error {
	return WriteFilePerm(path, data, 0, durable)
}

// WriteFilePerm is WriteFile that also gives the file the permissions perm
// whatever the umask (0: those of a new temporary file, 0600), so that a
// rewritten script stays executable.
func WriteFilePerm(path string, data []byte, perm fs.FileMode, durable bool) error {
	return WriteFileFrom(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, perm, durable)
}

// WriteShared is WriteFile for a file of the user's project (committed,
// read by other users and builds): it gets the mode os.WriteFile would
// give a new file, 0666 less the umask, rather than a private 0600.
func WriteShared(path string, data []byte, durable bool) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, createShared, 0, durable)
}

// WriteFileFrom is WriteFilePerm of what write writes, so a big file is
// written a piece at a time rather than made whole in memory first.
func WriteFileFrom(path string, write func(io.Writer) error, perm fs.FileMode, durable bool) error {
	return writeAtomic(path, write, os.CreateTemp, perm, durable)
}

// createShared makes a temporary file as os.CreateTemp does, but with
// 0666 less the umask.
func createShared(dir, pattern string) (*os.File, error) {
	prefix, _, _ := strings.Cut(pattern, "*")
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: fs.ErrExist}
}

// writeAtomic writes a temporary file that create makes in path's
// directory, gives it perm (0: as created) and renames it over path.
func writeAtomic(path string, write func(io.Writer) error, create func(dir, pattern string) (*os.File, error), perm fs.FileMode, durable bool) error {
	dir := filepath.Dir(path)
	tmp, err := create(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := write(tmp); err != nil {
		return fail(err)
	}
	if perm != 0 {
		if err := tmp.Chmod(perm); err != nil {
			return fail(err)
		}
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if durable {
		_ = SyncDir(dir)
	}
	return nil
}

// SyncDir flushes a directory's entries to disk, so that a file or
// directory just created in it survives a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteFileIn is WriteFilePerm of name inside root: the temporary file and
// the rename go through the root, so no name and no link on it takes the
// write outside. An existing link at name that leads out is refused (the
// root's error), not replaced. perm is given whatever the umask; 0 gives
// the file a new file's mode, 0666 less the umask (a file of the user's
// project, as WriteShared).
func WriteFileIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	if _, err := root.Stat(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
	created := fs.FileMode(0o600)
	if perm == 0 {
		created = 0o666
	}
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, created)
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
		err = root.Rename(tmp, name)
	}
	if err != nil {
		_ = root.Remove(tmp)
	}
	return err
}
