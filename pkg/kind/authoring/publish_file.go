package authoring

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/run"
)

// writeNew publishes text as base/rel, which must not exist yet, through
// an os.Root so that nothing (.., a symlink) takes the write outside
// base. The text goes to a temporary file beside it first, which is then
// linked into place (never over a file: link fails where one exists), so
// that the name holds the whole text or nothing: a crash or a full disk
// leaves no half-written definition, and the temporary file is removed
// on failure. A file already there with exactly this text is this write
// done before (a run that died after it and is resumed): published.
func writeNew(base, rel string, text []byte) error {
	root, err := os.OpenRoot(base)
	if err != nil {
		return run.Permanent(fmt.Errorf("registry: %v", err))
	}
	defer root.Close()
	dir := filepath.Dir(rel)
	if dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return run.Permanent(fmt.Errorf("registry: %v", err))
		}
	}
	removeLeftovers(root, rel)
	if done, err := publishedBefore(root, base, rel, text); done || err != nil {
		return err
	}
	tmp, err := writeTemp(root, rel, text)
	if err != nil {
		return run.Permanent(fmt.Errorf("registry: writing %s: %v", rel, err))
	}
	defer root.Remove(tmp)
	err = root.Link(tmp, rel)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		// a file system without hard links: a rename, once the name is
		// seen free (O_EXCL's promise, less the race)
		if _, serr := root.Lstat(rel); errors.Is(serr, fs.ErrNotExist) {
			err = root.Rename(tmp, rel)
		}
	}
	if errors.Is(err, fs.ErrExist) {
		// written meanwhile by another run: published if it is this text
		_, err = publishedBefore(root, base, rel, text)
		return err
	}
	if err != nil {
		return run.Permanent(fmt.Errorf("registry: publishing %s: %v", rel, err))
	}
	if d, err := root.Open(dir); err == nil {
		_ = d.Sync() // the new name survives a power cut
		d.Close()
	}
	return nil
}

// publishedBefore reports whether rel already holds exactly text, and
// refuses any other file there: a published definition is never
// overwritten.
func publishedBefore(root *os.Root, base, rel string, text []byte) (bool, error) {
	info, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err == nil && info.Mode().IsRegular() && info.Size() == int64(len(text)) {
		if have, rerr := root.ReadFile(rel); rerr == nil && bytes.Equal(have, text) {
			return true, nil
		}
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return false, run.Permanent(fmt.Errorf("registry: %v", err))
	}
	return false, run.Permanent(fmt.Errorf("registry: %s already exists in %s; a published definition is never overwritten (remove it, or publish under another definitionId)", rel, base))
}

// tempSuffix ends the name of a definition being written: not .yaml, so
// that no catalog reads it as a chain.
const tempSuffix = ".publishing"

// writeTemp writes text to a new file beside rel, flushed to disk, and
// returns its name; on failure nothing of it is left.
func writeTemp(root *os.Root, rel string, text []byte) (string, error) {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(filepath.Dir(rel), "."+filepath.Base(rel)+"."+hex.EncodeToString(rnd[:])+tempSuffix)
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", err
	}
	_, err = writeText(f, text)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// writeText writes a definition's text to its temporary file (a test
// makes it fail, as a full disk does).
var writeText = func(f *os.File, text []byte) (int, error) { return f.Write(text) }

// removeLeftovers removes the temporary files of rel an earlier write
// left when its process died mid-way.
func removeLeftovers(root *os.Root, rel string) {
	dir := filepath.Dir(rel)
	entries, err := fs.ReadDir(root.FS(), filepath.ToSlash(dir))
	if err != nil {
		return
	}
	prefix := "." + filepath.Base(rel) + "."
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, prefix) && strings.HasSuffix(name, tempSuffix) && e.Type().IsRegular() {
			root.Remove(filepath.Join(dir, name))
		}
	}
}
