package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/spell"
)

// Catalog is every chain file of a chains directory, loaded and checked.
type Catalog struct {
	Dir string
	// Files lists one entry per *.yaml / *.yml file, sorted by path.
	Files []*File
}

// File is one chain file: its chain when valid, else its errors.
type File struct {
	Path string
	// Name is the chain's name, known even for most invalid files.
	Name     string
	Loaded   *chain.Loaded
	Err      error
	Warnings []chain.Diagnostic
}

// IsChainFile reports whether a path has a chain file extension.
func IsChainFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

// IsCompanionFile reports whether a file beside chains belongs to one
// instead of being one: a chain test (NAME.test.yaml) or its recorded
// model answers (NAME.cassette.yaml).
func IsCompanionFile(path string) bool {
	name := strings.ToLower(filepath.Base(path))
	return strings.HasSuffix(name, ".test.yaml") || strings.HasSuffix(name, ".cassette.yaml")
}

// inCatalog reports whether a directory entry is a chain of the chains
// directory: a YAML file that is not a test's companion file, or a JSON
// file that is not an object (listing it says why) or that a front-end
// takes for one of its chains (Format.JSONChain; a chains directory may
// hold other JSON, a schema for editors say).
func inCatalog(dir string, e fs.DirEntry) bool {
	if e.IsDir() || !IsChainFile(e.Name()) || IsCompanionFile(e.Name()) {
		return false
	}
	if strings.ToLower(filepath.Ext(e.Name())) != ".json" {
		return true
	}
	data, err := chain.ReadFile(filepath.Join(dir, e.Name()))
	if err != nil {
		return true // unreadable: listing it says why
	}
	if json.Unmarshal(data, &struct{}{}) != nil {
		return true
	}
	for _, f := range load.Formats() {
		if f.JSONChain != nil && f.JSONChain(data) {
			return true
		}
	}
	return false
}

// Open loads every chain file of dir. A missing directory is an
// error that says where chainrun looked and how to point it elsewhere.
func Open(dir string, opts chain.Options) (*Catalog, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &DirError{Dir: dir, Msg: "chains directory not found (set --chains-dir, CHAINRUN_CHAINS_DIR or chains_dir in config)"}
		}
		return nil, &DirError{Dir: dir, Msg: "cannot read chains directory: " + err.Error()}
	}
	cat := &Catalog{Dir: dir}
	for _, e := range entries {
		if !inCatalog(dir, e) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		cat.Files = append(cat.Files, loadFile(path, opts)...)
	}
	sort.SliceStable(cat.Files, func(i, j int) bool { return cat.Files[i].Path < cat.Files[j].Path })
	cat.markDuplicates()
	return cat, nil
}

// loadFile loads one file: one entry per chain it holds (a
// workflow file may hold several), the file's warnings on the first.
func loadFile(path string, opts chain.Options) []*File {
	l, err := load.LoadFile(path, opts)
	if err != nil {
		var out []*File
		for _, name := range peekNames(path) {
			out = append(out, &File{Path: path, Name: name, Err: err})
		}
		if len(out) == 0 {
			out = append(out, &File{Path: path, Err: err})
		}
		return out
	}
	out := make([]*File, len(l.Chains))
	for i, c := range l.Chains {
		one := &chain.Loaded{Chain: c, Chains: l.Chains}
		out[i] = &File{Path: path, Name: c.Name, Loaded: one}
	}
	out[0].Warnings = l.Warnings
	out[0].Loaded.Warnings = l.Warnings
	return out
}

// markDuplicates turns every file that shares its name with another into
// an error naming both files.
func (cat *Catalog) markDuplicates() {
	byName := map[string][]*File{}
	for _, f := range cat.Files {
		if f.Name != "" {
			byName[f.Name] = append(byName[f.Name], f)
		}
	}
	for name, fs := range byName {
		if len(fs) < 2 {
			continue
		}
		for _, f := range fs {
			var others []string
			for _, o := range fs {
				if o != f {
					others = append(others, o.Path)
				}
			}
			pos := chain.Pos{Line: 1, Col: 1}
			if f.Loaded != nil {
				pos = f.Loaded.Chain.Pos
			}
			f.Err = &chain.ValidationError{Diagnostics: []chain.Diagnostic{{File: f.Path, Pos: pos,
				Message: fmt.Sprintf("chain name %q is also used by %s: chain names must be unique", name, strings.Join(others, ", "))}}}
			f.Loaded = nil
		}
	}
}

// Names lists the names of the valid chains, sorted.
func (cat *Catalog) Names() []string {
	var out []string
	for _, f := range cat.Files {
		if f.Loaded != nil {
			out = append(out, f.Name)
		}
	}
	sort.Strings(out)
	return out
}

// DirError is a chains directory that cannot be read.
type DirError struct {
	Dir string
	Msg string
}

func (e *DirError) Error() string { return e.Dir + ": " + e.Msg }

// NotFoundError is a chain name that matches no chain file.
type NotFoundError struct {
	Name string
	// What is what was looked for: a chain (when empty), a workflow, a
	// script.
	What  string
	Dir   string
	Known []string
}

func (e *NotFoundError) Error() string {
	what := e.What
	if what == "" {
		what = "chain"
	}
	msg := fmt.Sprintf("no %s named %q in %s", what, e.Name, e.Dir)
	if s := spell.Closest(e.Name, e.Known); s != "" {
		msg += " (did you mean " + s + "?)"
	}
	if len(e.Known) > 0 {
		msg += "; " + what + "s: " + strings.Join(e.Known, ", ")
	}
	return msg
}

// LookedIn is where the name was looked for and the names seen there,
// for a caller that words its own message (pkg/run, which may not
// import this package, matches it by this method).
func (e *NotFoundError) LookedIn() (where string, known []string) { return e.Dir, e.Known }

// Find returns the chain named name. A file of that name that failed
// validation returns its errors.
func (cat *Catalog) Find(name string) (*chain.Loaded, error) {
	for _, f := range cat.Files {
		if f.Name != name {
			continue
		}
		if f.Err != nil {
			return nil, f.Err
		}
		return f.Loaded, nil
	}
	return nil, &NotFoundError{Name: name, Dir: cat.Dir, Known: cat.Names()}
}

// FilePath reports whether arg names an existing chain file rather than a
// chain (the contract: an argument that is a path to a file runs that
// file), and returns it cleaned.
func FilePath(arg string) (string, bool) {
	if IsChainFile(arg) || strings.ContainsRune(arg, os.PathSeparator) || strings.ContainsRune(arg, '/') {
		if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
			return filepath.Clean(arg), true
		}
	}
	return "", false
}
