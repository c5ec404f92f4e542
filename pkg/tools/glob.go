package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globMax is how many paths Glob lists.
const globMax = 1000

var globTool = tool{
	description: "Lists the files of the working directory whose paths match a glob pattern, relative to " +
		"it: `*` and `?` match within one path segment, `[abc]` and `[a-z]` a character class, `{a,b}` " +
		"either alternative, and a segment `**` any number of directories (e.g. `**/*.go`, " +
		"`src/**/test_*.py`, `{cmd,pkg}/**/*.{go,md}`). Returns the paths sorted, one a line, at most " +
		"1000; directories are not listed and .git is skipped.",
	params: []param{
		{name: "pattern", kind: "string", required: true, description: "The glob pattern, relative to the working directory, e.g. **/*.ts."},
	},
	run: glob,
}

func glob(ctx context.Context, w *workspace, v values) (string, error) {
	pattern := v.str("pattern")
	if strings.TrimSpace(pattern) == "" {
		return "", errEmpty("pattern")
	}
	segs, err := w.globSegments(pattern)
	if err != nil {
		return "", err
	}
	if !doublestar.ValidatePattern(strings.Join(segs, "/")) {
		return "", fmt.Errorf("bad pattern %s: an unclosed [ or {, or a trailing \\", pattern)
	}
	// The leading segments without wildcards name the directory to walk
	// (resolved as every path is: a link out of the workspace is refused).
	lit := 0
	for lit < len(segs) && !hasMeta(segs[lit]) {
		lit++
	}
	base := strings.Join(segs[:lit], "/")
	if base == "" {
		base = "."
	}
	start, err := w.resolve(filepath.FromSlash(base))
	if err != nil {
		return "", err
	}
	var found []string
	if lit == len(segs) {
		// No wildcard at all: the pattern names one file.
		if fi, err := w.stat(start); err == nil && !fi.IsDir() {
			found = append(found, start.show)
		}
	} else if found, err = w.globWalk(ctx, start, strings.Join(segs[lit:], "/")); err != nil {
		return "", err
	}
	if len(found) == 0 {
		return fmt.Sprintf("no files match %s", pattern), nil
	}
	slices.Sort(found)
	out := strings.Join(found[:min(len(found), globMax)], "\n")
	if len(found) > globMax {
		out += fmt.Sprintf("\n… and %d more files (narrow the pattern to see them)", len(found)-globMax)
	}
	return out, nil
}

// globWalk lists the files below start (where the literal segments of
// the pattern led) that match pattern, named as start is shown. doublestar
// walks the workspace's os.Root, which no path leaves; links to
// directories are not followed, and a link to a file counts only when it
// resolves inside.
func (w *workspace) globWalk(ctx context.Context, start target, pattern string) ([]string, error) {
	top := filepath.ToSlash(start.rel)
	sub, err := fs.Sub(gitless{w.fs.FS()}, top)
	if err != nil {
		return nil, err
	}
	var found []string
	err = doublestar.GlobWalk(sub, pattern, func(p string, d fs.DirEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if fi, ok := w.inside(path.Join(top, p)); !ok || fi.IsDir() {
				return nil
			}
		}
		found = append(found, path.Join(start.show, p))
		return nil
	}, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return found, nil
}

// hasMeta reports whether a pattern segment holds a wildcard or braces.
func hasMeta(seg string) bool { return strings.ContainsAny(seg, `*?[{\`) }

// gitless is a file system whose directory listings leave out .git: a
// walk for **/*.go never enters a repository's objects.
type gitless struct{ fs.FS }

func (g gitless) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(g.FS, name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return e.Name() == ".git" }), err
}

func (g gitless) Stat(name string) (fs.FileInfo, error) { return fs.Stat(g.FS, name) }

// globSegments checks a pattern and splits it into path segments, relative
// to Dir: an absolute pattern must lie under Dir, and one that climbs out
// by .. is refused.
func (w *workspace) globSegments(pattern string) ([]string, error) {
	p := pattern
	if filepath.IsAbs(p) {
		rel, ok := w.under(filepath.Clean(p))
		if !ok {
			return nil, &OutsideError{Path: pattern, Dir: w.root}
		}
		p = rel
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == ".." || strings.HasPrefix(p, "../") {
		return nil, &OutsideError{Path: pattern, Dir: w.root}
	}
	var segs []string
	for _, s := range strings.Split(p, "/") {
		if s == "." || (s == "**" && len(segs) > 0 && segs[len(segs)-1] == "**") {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("bad pattern %s: segment %q is malformed (an unclosed [ or a trailing \\)", pattern, s)
		}
		segs = append(segs, s)
	}
	return segs, nil
}

// below is p (a slash path from a walk of top) relative to top; "" for top
// itself.
func below(top, p string) string {
	if top == "." {
		if p == "." {
			return ""
		}
		return p
	}
	return strings.TrimPrefix(strings.TrimPrefix(p, top), "/")
}

// matchSegments reports whether path segments names match pattern segments
// pat, where a "**" segment matches any number of names and any other goes
// through path.Match. With dir set it reports instead whether something
// under the directory names could match, so that a walk can skip it.
//
// It fills a table of which pattern prefixes match which name prefixes, so
// that many ** cost O(len(pat)·len(names)), not an exponential search.
func matchSegments(pat, names []string, dir bool) bool {
	// row[j]: pat[:i] matches names[:j], for the current i.
	row := make([]bool, len(names)+1)
	row[0] = true
	next := make([]bool, len(names)+1)
	for _, p := range pat {
		if dir && row[len(names)] {
			// pat[:i] matches the directory; pat[i:] may match below.
			return true
		}
		for j := range next {
			if p == "**" {
				next[j] = row[j] || (j > 0 && next[j-1])
			} else {
				ok := false
				if j > 0 && row[j-1] {
					ok, _ = path.Match(p, names[j-1])
				}
				next[j] = ok
			}
		}
		row, next = next, row
	}
	if dir {
		// All of pat matches the directory: only a trailing ** goes on.
		return row[len(names)] && len(pat) > 0 && pat[len(pat)-1] == "**"
	}
	return row[len(names)]
}

// MatchPath reports whether a slash-separated path matches a pattern
// whose "**" segments match any number of directories (allowed/**,
// src/**/*.go), as the glob tool reads them.
func MatchPath(pattern, name string) bool {
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"), false)
}
