package catalog

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/wfyaml"
	"github.com/chainrun/chainrun/pkg/load"
)

// maxTreeDepth bounds how deep FindWorkflow looks below the chains
// directory; below the directory above the calling file's, it looks one
// level down (that directory's files and its subdirectories' files).
const (
	maxTreeDepth = 8
	nearDepth    = 1
)

// FindWorkflow returns the workflow a workflow step of the file from
// names by its definitionId, when from holds none of that name: a
// workflow of a chain file in the chains directory or any directory below
// it; when that tree holds none (or there is no chains directory), one in
// the directory above from's or one of its subdirectories (mcp-flowgate
// keeps capabilities and orchestrators in sibling directories, so an
// orchestrator finds its capabilities wherever it is run from, and a
// resume finds them again).
// When several files of a tree hold one, the nearest to from wins: the
// one whose directory shares the longest path with from's; two equally
// near are an error naming both. Only the file that holds it is loaded
// and checked.
func (l *Library) FindWorkflow(name, from string) (*chain.Chain, error) {
	path, err := l.findNear(name, from, "workflow", func(t *tree) map[string][]string { return t.names })
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	loaded, err := once(&l.byPath, path, func() (*chain.Loaded, error) { return load.LoadFile(path, l.Opts) })
	l.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if c := loaded.Named(name); c != nil {
		return c, nil
	}
	return nil, &NotFoundError{Name: name, Dir: path}
}

// FindScript returns the script of that subject a script step of the file
// from runs when from's own scripts: library lacks it: one of the
// scripts: of another file, found as FindWorkflow finds a workflow (a
// file of scripts: alone, as mcp-flowgate keeps its library in
// scripts-library/, or any workflow file's).
func (l *Library) FindScript(subject, from string) (*chain.Script, error) {
	path, err := l.findNear(subject, from, "script", func(t *tree) map[string][]string { return t.scripts })
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.scriptFiles == nil {
		l.scriptFiles = map[string]map[string]*chain.Script{}
	}
	lib, ok := l.scriptFiles[path]
	if !ok {
		if lib, err = wfyaml.LoadScripts(path); err != nil {
			return nil, err
		}
		l.scriptFiles[path] = lib
	}
	if sc := lib[subject]; sc != nil {
		return sc, nil
	}
	return nil, &NotFoundError{Name: subject, Dir: path}
}

// findNear is the file, of the chains directory's tree or else beside
// from's directory, that holds name in the index pick chooses, the
// nearest to from.
func (l *Library) findNear(name, from, what string, pick func(*tree) map[string][]string) (string, error) {
	roots := []string{l.Dir, filepath.Dir(absDir(from))}
	seen := map[string]bool{}
	var paths []string
	for i, root := range roots {
		l.mu.Lock()
		index := pick(l.treeIndex(root, []int{maxTreeDepth, nearDepth}[i]))
		l.mu.Unlock()
		if paths = index[name]; len(paths) > 0 {
			break
		}
		for n := range index {
			seen[n] = true
		}
	}
	if len(paths) == 0 {
		known := make([]string, 0, len(seen))
		for n := range seen {
			known = append(known, n)
		}
		sort.Strings(known)
		return "", &NotFoundError{Name: name, What: what, Dir: l.Dir + " and its subdirectories, or of " + roots[1] + " and the directories in it", Known: known}
	}
	return nearest(name, paths, from)
}

// tree is what a directory's tree holds, read once by names alone: the
// files holding each chain name, and each script subject.
type tree struct {
	names, scripts map[string][]string
}

// treeIndex is indexTree of root, read once a Library.
func (l *Library) treeIndex(root string, depth int) *tree {
	key := fmt.Sprint(depth, root)
	if t, ok := l.trees[key]; ok {
		return t
	}
	if l.trees == nil {
		l.trees = map[string]*tree{}
	}
	t := indexTree(root, depth)
	l.trees[key] = t
	return t
}

// NamesBelow are the chain and workflow names of the chain files in root
// and the directories below it (as deep as FindWorkflow looks), each with
// the files that hold it: the names a new file there may not take, or a
// run by name or a workflow step would find two.
func NamesBelow(root string) map[string][]string { return indexTree(root, maxTreeDepth).names }

// indexTree reads the tree below root (depth directories down) by names
// alone; a root that is no directory holds nothing.
func indexTree(root string, depth int) *tree {
	t := &tree{names: map[string][]string{}, scripts: map[string][]string{}}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return t
	}
	_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner holds nothing to find
		}
		if e.IsDir() {
			rel, _ := filepath.Rel(root, path)
			if path != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" || strings.Count(rel, string(filepath.Separator)) >= depth) {
				return filepath.SkipDir
			}
			return nil
		}
		if !inCatalog(filepath.Dir(path), e) {
			return nil
		}
		names, subjects := peekFile(path)
		for _, n := range names {
			t.names[n] = append(t.names[n], path)
		}
		for _, sub := range subjects {
			t.scripts[sub] = append(t.scripts[sub], path)
		}
		return nil
	})
	return t
}

// nearest picks, of the files holding name, the one nearest to from: the
// longest directory path in common.
func nearest(name string, paths []string, from string) (string, error) {
	fromDir := absDir(from)
	best, bestLen := []string{}, -1
	for _, p := range paths {
		n := commonDirs(absDir(p), fromDir)
		switch {
		case n > bestLen:
			best, bestLen = []string{p}, n
		case n == bestLen:
			best = append(best, p)
		}
	}
	if len(best) > 1 {
		return "", &AmbiguousError{Name: name, Files: best, From: from}
	}
	return best[0], nil
}

// AmbiguousError is a name that chains of several files hold, none
// nearer than the others to the file (or chains directory) asking: a
// workflow step's definitionId, or a chain run by name that only
// subdirectories of the chains directory hold.
type AmbiguousError struct {
	Name  string
	Files []string
	From  string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("chains named %s are in %s, none nearer to %s than the others: run the one meant by its path, or point --chains-dir at the directory that holds it", e.Name, strings.Join(e.Files, " and "), e.From)
}

func absDir(path string) string {
	// a snapshot's file is named "PATH (snapshot)": its directory is PATH's
	path, _, _ = strings.Cut(path, " (snapshot)")
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return filepath.Dir(path)
}

// commonDirs counts the leading directories two paths share.
func commonDirs(a, b string) int {
	as := strings.Split(filepath.ToSlash(a), "/")
	bs := strings.Split(filepath.ToSlash(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}
