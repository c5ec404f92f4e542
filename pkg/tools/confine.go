package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// OutsideError is a path that resolves outside Env.Dir: it leaves it by
// "..", is absolute elsewhere, or runs through a symbolic link that points
// out. The file tools refuse it so that a step acts on its own directory
// only.
type OutsideError struct{ Path, Dir string }

// Error tells the model which path was refused and where it may act.
func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s is outside the working directory %s: the tools may only use paths under it, not leave it by .. or through a symbolic link", e.Path, e.Dir)
}

// workspace is Env with its directory checked and resolved, for one call.
type workspace struct {
	env Env
	// root is Env.Dir cleaned; real is root with its symbolic links
	// resolved, what every resolved path is compared with.
	root, real string
	// fs is the directory opened as an os.Root: every file operation
	// goes through it (root.go).
	fs *os.Root
}

func newWorkspace(env Env) (*workspace, error) {
	root := filepath.Clean(env.Dir)
	if env.Dir == "" || !filepath.IsAbs(root) {
		return nil, fmt.Errorf("the working directory %q is not an absolute path", env.Dir)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("the working directory is unusable: %w", err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the working directory %s is not a directory", root)
	}
	fsys, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("the working directory is unusable: %w", err)
	}
	return &workspace{env: env, root: root, real: real, fs: fsys}, nil
}

// close releases the workspace's Root.
func (w *workspace) close() { w.fs.Close() }

// target is a path a model named, resolved inside the workspace.
type target struct {
	// real is the path with every symbolic link resolved (its missing
	// tail, for a file still to be written, joined as given): what the
	// tool acts on.
	real string
	// rel is real relative to Dir: what the Root opens.
	rel string
	// show is the path relative to Dir, slash-separated, for messages;
	// given is the path as the model wrote it.
	show, given string
}

// resolve confines p, absolute or relative to Dir, to the workspace: it is
// cleaned, its longest existing prefix has its symbolic links resolved
// (a dangling link is followed to where it points), and the result must be
// Dir or under it.
func (w *workspace) resolve(p string) (target, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return target{}, fmt.Errorf("path %q contains a NUL byte", p)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.root, abs)
	}
	abs = filepath.Clean(abs)
	real, err := realPath(abs, 0)
	if err != nil {
		if strings.Contains(err.Error(), "too many links") || errors.Is(err, syscall.ELOOP) {
			return target{}, fmt.Errorf("cannot resolve %s: too many levels of symbolic links (a loop of links)", p)
		}
		return target{}, fmt.Errorf("cannot resolve %s: %w", p, bare(err))
	}
	rel, ok := w.under(real)
	if !ok {
		return target{}, &OutsideError{Path: p, Dir: w.root}
	}
	return target{real: real, rel: rel, show: w.show(abs, real), given: p}, nil
}

// under is the clean absolute path p relative to Dir, as Dir is written
// or with its links resolved; false when p lies under neither.
func (w *workspace) under(p string) (string, bool) { return RelUnder(p, w.root, w.real) }

// RelUnder is the clean absolute path p relative to the first of dirs
// (clean, absolute: one directory as written and with its links
// resolved) that holds it; false when none does. It is the one test of
// "inside the step's directory" for the built-in tools and the
// chain-defined ones.
func RelUnder(p string, dirs ...string) (string, bool) {
	for _, d := range dirs {
		if within(p, d) {
			rel, err := filepath.Rel(d, p)
			return rel, err == nil
		}
	}
	return "", false
}

// show is how a resolved path is named to the model: relative to Dir as
// it was written when it was written under Dir, else as it resolved.
func (w *workspace) show(abs, real string) string {
	for _, c := range [][2]string{{w.root, abs}, {w.real, abs}, {w.real, real}, {w.root, real}} {
		if within(c[1], c[0]) {
			if rel, err := filepath.Rel(c[0], c[1]); err == nil {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(real)
}

// maxLinks bounds the dangling symbolic links followed for one path, as
// the kernel's ELOOP does for existing ones.
const maxLinks = 40

// realPath resolves the symbolic links of abs (absolute and clean). Its
// longest existing prefix goes through filepath.EvalSymlinks and the rest
// is joined as written; a prefix that is a dangling link is followed to its
// target, which is resolved in turn.
func realPath(abs string, links int) (string, error) {
	prefix, rest := abs, ""
	for {
		real, err := filepath.EvalSymlinks(prefix)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if fi, lerr := os.Lstat(prefix); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if links >= maxLinks {
				return "", errors.New("too many levels of symbolic links")
			}
			to, err := os.Readlink(prefix)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(to) {
				// The link's directory exists (the link was found in it).
				dir, err := filepath.EvalSymlinks(filepath.Dir(prefix))
				if err != nil {
					return "", err
				}
				to = filepath.Join(dir, to)
			}
			return realPath(filepath.Join(filepath.Clean(to), rest), links+1)
		}
		parent := filepath.Dir(prefix)
		if parent == prefix {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(prefix), rest)
		prefix = parent
	}
}

// within reports whether p is dir or under it; both are clean.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
