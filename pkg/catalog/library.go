package catalog

import (
	"errors"
	"path/filepath"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
)

// Library finds chains by name in a chains directory, or by a file's
// path, and loads each once: a chain called many times is loaded once,
// and a file edited during a run does not change what the run sees. A
// name loads only the file that holds it (FindIn) until the whole
// catalog is asked for. It is safe for concurrent use (chain steps
// running side by side resolve their callees through it).
type Library struct {
	Dir  string
	Opts chain.Options

	mu     sync.Mutex
	byPath map[string]*chain.Loaded
	byName map[string]*chain.Loaded
	cat    *Catalog
	// trees are what directories' trees hold (FindWorkflow, FindScript),
	// each read once; scriptFiles the scripts: of files read for them.
	trees       map[string]*tree
	scriptFiles map[string]map[string]*chain.Script
}

// Resolve returns the chain arg names: a chain file's path, else a
// chain's name in the directory.
func (l *Library) Resolve(arg string) (*chain.Loaded, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if path, ok := FilePath(arg); ok {
		return once(&l.byPath, path, func() (*chain.Loaded, error) { return load.LoadFile(path, l.Opts) })
	}
	var found *chain.Loaded
	var err error
	if l.cat != nil {
		found, err = l.cat.Find(arg)
	} else {
		found, err = once(&l.byName, arg, func() (*chain.Loaded, error) { return FindIn(l.Dir, arg, l.Opts) })
	}
	var nf *NotFoundError
	if errors.As(err, &nf) {
		if below, berr := l.findBelow(arg); below != nil || berr != nil {
			return below, berr
		}
	}
	return found, err
}

// ResolveFrom is Resolve for a chain another chain calls: a name the
// chains directory lacks (or a directory that does not exist) is looked
// for beside the calling file, then in a chains/ directory beside the
// calling file's own (OCC keeps pipelines/ and chains/ side by side).
func (l *Library) ResolveFrom(arg, from string) (*chain.Loaded, error) {
	found, err := l.Resolve(arg)
	var nf *NotFoundError
	var de *DirError
	if err == nil || from == "" || !(errors.As(err, &nf) || errors.As(err, &de)) {
		return found, err
	}
	if _, isPath := FilePath(arg); isPath {
		return found, err
	}
	here := filepath.Dir(from)
	for _, dir := range []string{here, filepath.Join(here, "..", "chains")} {
		if filepath.Clean(dir) == filepath.Clean(l.Dir) {
			continue
		}
		l.mu.Lock()
		near, nerr := once(&l.byPath, dir+"\x00"+arg, func() (*chain.Loaded, error) { return FindIn(dir, arg, l.Opts) })
		l.mu.Unlock()
		if nerr == nil {
			return near, nil
		}
		if !errors.As(nerr, &nf) && !errors.As(nerr, &de) {
			return nil, nerr
		}
	}
	return found, err
}

// findBelow finds a chain the top of the directory lacks in its
// subdirectories (mcp-flowgate keeps orchestrators in orchestrators/):
// the one file holding it; several are an error naming them. nil, nil
// when none does.
func (l *Library) findBelow(name string) (*chain.Loaded, error) {
	var paths []string
	for _, p := range l.treeIndex(l.Dir, maxTreeDepth).names[name] {
		if filepath.Dir(p) != filepath.Clean(l.Dir) {
			paths = append(paths, p)
		}
	}
	switch len(paths) {
	case 0:
		return nil, nil
	case 1:
	default:
		return nil, &AmbiguousError{Name: name, Files: paths, From: l.Dir}
	}
	loaded, err := once(&l.byPath, paths[0], func() (*chain.Loaded, error) { return load.LoadFile(paths[0], l.Opts) })
	if err != nil {
		return nil, err
	}
	return &chain.Loaded{Chain: loaded.Named(name), Chains: loaded.Chains, Warnings: loaded.Warnings}, nil
}

// Catalog loads every chain of the directory, once.
func (l *Library) Catalog() (*Catalog, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cat == nil {
		cat, err := Open(l.Dir, l.Opts)
		if err != nil {
			return nil, err
		}
		l.cat = cat
	}
	return l.cat, nil
}

// once returns m[key], loading and keeping it the first time; a failed
// load is not kept.
func once(m *map[string]*chain.Loaded, key string, load func() (*chain.Loaded, error)) (*chain.Loaded, error) {
	if got, ok := (*m)[key]; ok {
		return got, nil
	}
	got, err := load()
	if err != nil {
		return nil, err
	}
	if *m == nil {
		*m = map[string]*chain.Loaded{}
	}
	(*m)[key] = got
	return got, nil
}
