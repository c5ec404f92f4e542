package run

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/tools"
)

// A chain-defined tool runs with arguments a model chose, so every path
// its executor names (a file executor's path, a cli executor's cwd) is
// confined to the calling step's directory exactly as the built-in tools
// are: it is opened through an os.Root at that directory, so ".." and
// symbolic links that lead out fail, whatever the path's shape.

// A decision's arguments are chosen the same way, by a model, a caller's
// --arg or an MCP client: a path or cwd whose template reads them
// ({arguments.x}; in a pipeline, the step before's output) is confined
// likewise, to the directory the step would run in, which the chain
// names (its cwd, else the run's directory).

// A decision's argument can be handed on before it makes a path: copied
// to the context by an output mapping, selected by a $.-path, passed to a
// called workflow or chain as its input. So in a workflow whose decisions
// take arguments, and in what such a workflow calls, every path or cwd
// taken from the run's data is confined (confines); only a path the
// chain writes out itself is not.

// takesArguments reports whether a decision of w can be given arguments
// (a transition with an inputSchema): only then can the run's data hold
// what a model or an MCP client chose, so only then are the paths and
// cwds its executors render from that data confined. A workflow without
// one reads its paths from what the person who ran it gave, as a DAG
// chain does.
func takesArguments(w *chain.Workflow) bool {
	if w == nil {
		return false
	}
	for _, st := range w.States {
		for _, t := range st.Transitions {
			if t.InputSchema != nil {
				return true
			}
		}
	}
	return false
}

// confines reports whether a path or cwd template, rendered here, is
// confined: it reads a decision's arguments, or (chosenPaths) any of the
// run's data. fromData says the path is a $.-path, which reads the run's
// data whatever the template.
func (x *execution) confines(t *chain.Template, fromData bool) bool {
	if fromArguments(t) {
		return true
	}
	return x.chosenPaths && (fromData || t != nil && len(t.Refs()) > 0)
}

// fromArguments reports whether a path template takes part of its value
// from a decision's arguments.
func fromArguments(t *chain.Template) bool {
	if t == nil {
		return false
	}
	for _, r := range t.Refs() {
		if r.Name == "arguments" {
			return true
		}
	}
	return false
}

// jailRel turns p (absolute, or relative to base, itself under jail) into
// a clean path relative to jail, refusing one that leaves it by its shape.
// An absolute path may name jail as written or with its links resolved.
func jailRel(jail, base, p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", &permanentError{fmt.Errorf("path %q contains a NUL byte", p)}
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
	return "", &permanentError{&tools.OutsideError{Path: p, Dir: jail}}
}

// rootError words an error of an os.Root call for the model: an escape
// (by a symbolic link that points out) is a tools.OutsideError, the built-in tools' own refusal.
func rootError(err error, p, jail string) error {
	if tools.Escapes(err) {
		return &permanentError{&tools.OutsideError{Path: p, Dir: jail}}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &permanentError{fmt.Errorf("cannot read %s: %w", p, err)}
}

// confinedDir is a chain-defined tool's cwd d, which must be a directory
// under jail (through no link that leaves it).
func confinedDir(jail, d string) (string, error) {
	rel, err := jailRel(jail, jail, d)
	if err != nil {
		return "", err
	}
	root, err := os.OpenRoot(jail)
	if err != nil {
		return "", &permanentError{fmt.Errorf("the step's directory is unusable: %w", err)}
	}
	defer root.Close()
	fi, err := root.Stat(rel)
	if err != nil {
		return "", rootError(err, d, jail)
	}
	if !fi.IsDir() {
		return "", &permanentError{fmt.Errorf("cwd %s is not a directory", d)}
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
		rel, jerr := jailRel(jail, base, p)
		if jerr != nil {
			return nil, jerr
		}
		root, rerr := os.OpenRoot(jail)
		if rerr != nil {
			return nil, &permanentError{fmt.Errorf("the step's directory is unusable: %w", rerr)}
		}
		defer root.Close()
		f, err = fsutil.OpenRegularIn(root, rel)
	}
	var nr *fsutil.NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, &permanentError{fmt.Errorf("%s is %s, not a regular file: a file step reads regular files only", p, fsutil.Kind(nr.Mode))}
	case err != nil && jail != "":
		return nil, rootError(err, p, jail)
	case err != nil:
		return nil, &permanentError{fmt.Errorf("cannot read %s: %w", shown, errors.Unwrap(err))}
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
		return &permanentError{fmt.Errorf("%s is %s, not a regular file: a write_file pre_tool writes regular files only", p, fsutil.Kind(nr.Mode))}
	case jail != "":
		return rootError(err, p, jail)
	}
	return &permanentError{fmt.Errorf("cannot write %s: %w", p, errors.Unwrap(err))}
}
