package chaintest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// Suffix ends the name of every test file.
const Suffix = ".test.yaml"

// Discover loads the test files args name: a test file, a directory (its
// *.test.yaml files, at any depth), or a chain's name or a pattern of
// names (deploy*: the test files of dirs that test them). No args: every test file of dirs. Each file is
// loaded once and checked; an arg that names nothing is an error.
func Discover(args []string, dirs []string) ([]*File, error) {
	var paths []string
	if len(args) == 0 {
		for _, d := range dirs {
			found, err := walk(d, true)
			if err != nil {
				return nil, err
			}
			paths = append(paths, found...)
		}
		if len(paths) == 0 {
			return nil, fmt.Errorf("no *%s files under %s", Suffix, strings.Join(dirs, " or "))
		}
		return loadAll(paths, nil)
	}
	var byChain []string
	for _, a := range args {
		st, err := os.Stat(a)
		switch {
		case err == nil && st.IsDir():
			found, err := walk(a, false)
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				return nil, fmt.Errorf("%s: no *%s files in it", a, Suffix)
			}
			paths = append(paths, found...)
		case err == nil:
			paths = append(paths, a)
		case strings.ContainsAny(a, "/\\") || strings.HasSuffix(a, ".yaml"):
			return nil, fmt.Errorf("%s: %w", a, unwrapPath(err))
		default:
			byChain = append(byChain, a)
		}
	}
	return loadAll(paths, byChainFilter(byChain, dirs))
}

// byChainFilter finds the test files of chains named by name in dirs.
func byChainFilter(names []string, dirs []string) func() ([]*File, error) {
	if len(names) == 0 {
		return nil
	}
	return func() ([]*File, error) {
		var all []string
		for _, d := range dirs {
			found, err := walk(d, true)
			if err != nil {
				return nil, err
			}
			all = append(all, found...)
		}
		var out []*File
		for _, name := range names {
			var match []string
			for _, p := range all {
				if testsChain(p, name) {
					match = append(match, p)
				}
			}
			if len(match) == 0 {
				return nil, fmt.Errorf("%s: not a test file, a directory, or a chain with tests (no *%s under %s tests it)", name, Suffix, strings.Join(dirs, " or "))
			}
			files, err := loadAll(match, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, files...)
		}
		return out, nil
	}
}

// testsChain reports whether the test file at path is name's: its file
// is NAME.test.yaml, or its chain: names the chain. Only that key is
// read, so that another chain's broken test file is no obstacle.
func testsChain(path, name string) bool {
	if matchName(name, strings.TrimSuffix(filepath.Base(path), Suffix)) {
		return true
	}
	data, err := fsutil.ReadRegular(path, maxTestFile)
	if err != nil {
		return false
	}
	var head struct {
		Chain string `yaml:"chain"`
	}
	_ = yaml.Unmarshal(data, &head)
	f := &File{Path: path, Chain: head.Chain}
	ref, isPath := f.ChainRef()
	return matchName(name, ref) || (isPath && matchName(name, strings.TrimSuffix(filepath.Base(ref), filepath.Ext(ref))))
}

// matchName reports whether a chain's name is the one asked for, or
// matches it as a pattern (deploy*, review-?).
func matchName(pattern, name string) bool {
	ok, err := filepath.Match(pattern, name)
	return pattern == name || (err == nil && ok)
}

// loadAll loads each path once, and the files more finds.
func loadAll(paths []string, more func() ([]*File, error)) ([]*File, error) {
	var out []*File
	seen := map[string]bool{}
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		if seen[abs] {
			continue
		}
		seen[abs] = true
		f, err := Load(p)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if more != nil {
		extra, err := more()
		if err != nil {
			return nil, err
		}
		for _, f := range extra {
			if abs, _ := filepath.Abs(f.Path); !seen[abs] {
				seen[abs] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// walk lists the test files under dir, sorted. missingOK: a directory
// that does not exist holds none.
func walk(dir string, missingOK bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), Suffix) {
			out = append(out, path)
		}
		return nil
	})
	if missingOK && os.IsNotExist(err) {
		return nil, nil
	}
	slices.Sort(out)
	return out, err
}
