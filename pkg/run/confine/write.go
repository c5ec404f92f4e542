package confine

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// WriteFile writes content to p (absolute, or relative to base), making
// its directories, appending when asked, and is the path written as the
// run shows it. Under jail ("" none) it goes through an os.Root, so that
// no path or link takes it out; what is not a regular file (a FIFO would
// wait for a reader) is refused. It is a write_file pre_tool's write,
// kept here beside the confinement and read it mirrors (confine.go).
// A failure of the write itself, once the file is open, is no Refusal.
func WriteFile(jail, base, p string, content []byte, appending bool) (string, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appending {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	var f *os.File
	if jail != "" {
		root, rel, err := under(jail, base, p)
		if err != nil {
			return "", err
		}
		defer root.Close()
		if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			return "", RootError(err, p, jail)
		}
		if f, err = fsutil.OpenFileRegularIn(root, rel, flags, 0o644); err != nil {
			return "", writeError(err, p, jail)
		}
	} else {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", &Refusal{fmt.Errorf("cannot write %s: %w", p, err)}
		}
		var err error
		if f, err = fsutil.OpenFileRegular(p, flags, 0o644); err != nil {
			return "", writeError(err, p, "")
		}
	}
	_, err := f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	return p, nil
}
