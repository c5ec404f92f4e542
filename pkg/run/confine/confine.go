package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/tools"
)

// Refusal is a path this package will not open or write, or a directory
// it cannot open: asking again cannot mend it, so a step fails for good.
type Refusal struct{ Err error }

func (e *Refusal) Error() string { return e.Err.Error() }
func (e *Refusal) Unwrap() error { return e.Err }

// Rel turns p (absolute, or relative to base, itself under jail) into a
// clean path relative to jail, refusing one that leaves it by its shape.
// An absolute path may name jail as written or with its links resolved.
func Rel(jail, base, p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", &Refusal{fmt.Errorf("path %q contains a NUL byte", p)}
	}
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(base, p)
	}
	full = filepath.Clean(full)
	dirs := []string{filepath.Clean(jail)}
	if real, err := filepath.EvalSymlinks(jail); err == nil {
		dirs = append(dirs, real)
	}
	if rel, ok := tools.RelUnder(full, dirs...); ok {
		return rel, nil
	}
	return "", &Refusal{&tools.OutsideError{Path: p, Dir: jail}}
}

// RootError words an error of an os.Root call for the model: an escape
// (by a symbolic link that points out) is a tools.OutsideError, the built-in tools' own refusal.
func RootError(err error, p, jail string) error {
	if tools.Escapes(err) {
		return &Refusal{&tools.OutsideError{Path: p, Dir: jail}}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Refusal{fmt.Errorf("cannot read %s: %w", p, err)}
}

// under opens jail as an os.Root and makes p (relative to base) relative
// to it: where every confined stat, open and write starts.
func under(jail, base, p string) (*os.Root, string, error) {
	rel, err := Rel(jail, base, p)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(jail)
	if err != nil {
		return nil, "", &Refusal{fmt.Errorf("the step's directory is unusable: %w", err)}
	}
	return root, rel, nil
}

// Dir is a cwd d chosen by a model or a decision's arguments, which must
// be a directory under jail (through no link that leaves it).
func Dir(jail, d string) (string, error) {
	root, rel, err := under(jail, jail, d)
	if err != nil {
		return "", err
	}
	defer root.Close()
	fi, err := root.Stat(rel)
	if err != nil {
		return "", RootError(err, d, jail)
	}
	if !fi.IsDir() {
		return "", &Refusal{fmt.Errorf("cwd %s is not a directory", d)}
	}
	return filepath.Join(jail, rel), nil
}

// OpenRegular opens p for reading (inside jail through an os.Root when
// jail is set) and refuses what is not a regular file: a FIFO, a device
// or a directory could block or never end, and no timeout or interrupt
// could stop the read. The open itself does not block (fsutil), so a
// FIFO nobody writes is refused at once.
func OpenRegular(jail, base, p string) (*os.File, error) {
	var f *os.File
	var err error
	shown := p
	if jail == "" {
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(base, p)
		}
		f, err = fsutil.OpenRegular(full)
		shown = full
	} else {
		root, rel, jerr := under(jail, base, p)
		if jerr != nil {
			return nil, jerr
		}
		defer root.Close()
		f, err = fsutil.OpenRegularIn(root, rel)
	}
	var nr *fsutil.NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, &Refusal{fmt.Errorf("%s is %s, not a regular file: a file step reads regular files only", p, fsutil.Kind(nr.Mode))}
	case err != nil && jail != "":
		return nil, RootError(err, p, jail)
	case err != nil:
		return nil, &Refusal{fmt.Errorf("cannot read %s: %w", shown, errors.Unwrap(err))}
	}
	return f, nil
}

// writeError words an error of opening p to write (inside jail when it
// is set): what is not a regular file (a FIFO would wait for a reader),
// an escape, or the error itself.
func writeError(err error, p, jail string) error {
	var nr *fsutil.NotRegularError
	switch {
	case errors.As(err, &nr):
		return &Refusal{fmt.Errorf("%s is %s, not a regular file: a write_file pre_tool writes regular files only", p, fsutil.Kind(nr.Mode))}
	case jail != "":
		return RootError(err, p, jail)
	}
	return &Refusal{fmt.Errorf("cannot write %s: %w", p, errors.Unwrap(err))}
}
