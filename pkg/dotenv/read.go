package dotenv

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// File is one dotenv file to read.
type File struct {
	Path string
	// Optional files may be missing (a developer's own .env.local);
	// a missing required one is an error.
	Optional bool
	// From says where the file was named (a chain file's line, the
	// config file), for the error about it.
	From string
}

// FileError is a dotenv file that cannot be read: missing (and not
// optional), a directory, too big, unreadable.
type FileError struct {
	File File
	Err  error
}

func (e *FileError) Error() string {
	from := ""
	if e.File.From != "" {
		from = " (named at " + e.File.From + ")"
	}
	if errors.Is(e.Err, fs.ErrNotExist) {
		return fmt.Sprintf("dotenv file %s%s does not exist; write it as {path: %s, required: false} if it may be missing", e.File.Path, from, e.File.Path)
	}
	return fmt.Sprintf("dotenv file %s%s: %v", e.File.Path, from, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *FileError) NothingRan() bool { return true }

// maxSize bounds a dotenv file: settings, not data (a path to /dev/zero
// must not fill the memory).
const maxSize = 1 << 20

// Read returns the variables of files, read in order: a variable that
// several set has the last one's value. A missing optional file is
// skipped. Values are expanded as Docker Compose expands them (expand):
// a variable set before, in this file or an earlier one, else the
// process's environment.
func Read(files []File) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range files {
		vars, err := readFile(f)
		if err != nil {
			return nil, err
		}
		for _, v := range vars {
			if out[v.Key], err = expand(f.Path, v, out, processEnv); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// readFile reads and parses one file. It is opened without blocking and
// must be a regular file: a FIFO nobody writes would otherwise hang the
// command before anything runs, deaf to an interrupt.
func readFile(f File) ([]Var, error) {
	data, err := fsutil.ReadRegular(f.Path, maxSize)
	var nr *fsutil.NotRegularError
	var big *fsutil.TooLargeError
	switch {
	case err == nil:
		return Parse(f.Path, data)
	case f.Optional && errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &nr):
		return nil, &FileError{f, fmt.Errorf("is %s, not a regular file", fsutil.Kind(nr.Mode))}
	case errors.As(err, &big):
		return nil, &FileError{f, fmt.Errorf("is over %d bytes: a dotenv file holds settings", maxSize)}
	}
	return nil, &FileError{f, err}
}
