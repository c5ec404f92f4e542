package chaintest

import (
	"fmt"
	"os"
	"path/filepath"
)

// roots are the directories of the test files being run, each opened as
// an os.Root: a test file's golden files are read and written through its
// directory's root only, so that neither ".." nor a symbolic link (one a
// checked-out repository may hold) leads a read or an --update write out
// of it.
type roots map[string]*os.Root

// openRoots opens the directory of each file once.
func openRoots(files []*File) (roots, error) {
	rs := roots{}
	for _, f := range files {
		dir := filepath.Dir(f.Path)
		if rs[dir] != nil {
			continue
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			rs.close()
			return nil, fmt.Errorf("%s: its directory: %w", f.Path, err)
		}
		rs[dir] = r
	}
	return rs, nil
}

// close closes every root.
func (rs roots) close() {
	for _, r := range rs {
		r.Close()
	}
}
