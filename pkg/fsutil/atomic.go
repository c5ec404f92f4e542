// Package fsutil writes files so that readers never see half of one: the
// data goes to a temporary file in the same directory, which is renamed
// over the target. Durable writes also reach the disk before they return.
// It also reads the files a user names so that a FIFO, a device or a
// directory is refused at once instead of blocking (regular.go), and
// writes inside an os.Root so that no link leads a write out.
// It imports nothing of this module.
package fsutil

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

// WriteFileFrom is WriteFilePerm of what write writes, so a big file is
// written a piece at a time rather than made whole in memory first.
func WriteFileFrom(path string, write func(io.Writer) error, perm fs.FileMode, durable bool) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
// root's error), not replaced; perm as for WriteFilePerm.
func WriteFileIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	if _, err := root.Stat(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var r [6]byte
	_, _ = rand.Read(r[:])
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-"+hex.EncodeToString(r[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
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
