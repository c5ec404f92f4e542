package catalog

import (
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/pkg/chain"
)

// FindIn returns the chain named name from the chains directory dir,
// loading and checking only the file that holds it: running one chain
// must not cost the validation of every other file of the directory.
// The other files are only peeked at for their names, so that a name
// used twice is still refused. Whenever the answer is an error (no such
// chain, a name used twice, an unreadable directory), the whole
// catalog is read and answers, with the same messages as Open's.
func FindIn(dir, name string, opts chain.Options) (*chain.Loaded, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return slowFind(dir, name, opts)
	}
	var holder string
	for _, e := range entries {
		if !inCatalog(dir, e) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		names := peekNames(path)
		if len(names) == 0 {
			// unreadable or unparsable: it may hold the name, and only a
			// full load can say what is wrong with it
			return slowFind(dir, name, opts)
		}
		for _, n := range names {
			if n != name {
				continue
			}
			if holder != "" && holder != path {
				return slowFind(dir, name, opts)
			}
			holder = path
		}
	}
	if holder == "" {
		return slowFind(dir, name, opts)
	}
	files := loadFile(holder, opts)
	for _, f := range files {
		if f.Name == name && f.Err == nil && f.Loaded != nil {
			return f.Loaded, nil
		}
	}
	return slowFind(dir, name, opts)
}

func slowFind(dir, name string, opts chain.Options) (*chain.Loaded, error) {
	cat, err := Open(dir, opts)
	if err != nil {
		return nil, err
	}
	return cat.Find(name)
}
