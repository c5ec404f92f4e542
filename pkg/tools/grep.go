package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

const (
	// grepMax is how many matching lines Grep shows.
	grepMax = 500
	// grepLineMax is how many characters of a matching line it shows.
	grepLineMax = 500
	grepCut     = " … [cut]"
	// grepScan is how much of one line is searched: a line longer than
	// this (minified code, a data dump) is searched in its first part only.
	grepScan = 1 << 20
)

var grepTool = tool{
	description: "Searches the contents of files of the working directory for a regular expression " +
		"(Go RE2 syntax: no backreferences or lookaround; start with (?i) to ignore case). Searches " +
		"one file, or every file under a directory (default: the whole working directory), skipping " +
		"binary files and .git. Returns `path:line:text` for each matching line, paths relative to " +
		"the working directory, at most 500 lines; long lines are cut at 500 characters.",
	params: []param{
		{name: "pattern", kind: "string", required: true, description: "The regular expression to search for (Go RE2 syntax)."},
		{name: "path", kind: "string", description: "A file or directory to search, relative to the working directory or absolute inside it. Default: the working directory."},
	},
	run: grep,
}

func grep(ctx context.Context, w *workspace, v values) (string, error) {
	pattern := v.str("pattern")
	if pattern == "" {
		return "", errEmpty("pattern")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", fmt.Errorf("invalid regular expression: %w", err)
	}
	where := v.str("path")
	if where == "" {
		where = "."
	}
	t, err := w.resolve(where)
	if err != nil {
		return "", err
	}
	fi, err := w.stat(t)
	if Escapes(err) {
		return "", w.fail(err, t, "search")
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist", t.show)
	}
	if err != nil {
		return "", fmt.Errorf("cannot search %s: %w", t.show, bare(err))
	}
	g := &grepper{re: re, fs: w.fs}
	switch {
	case fi.IsDir():
		if err := w.walkGrep(ctx, t, g); err != nil {
			return "", err
		}
	case fi.Mode().IsRegular():
		isBinary, err := g.file(t.rel, t.show)
		if err != nil {
			return "", fmt.Errorf("cannot search %s: %w", t.show, bare(err))
		}
		if isBinary {
			return "", fmt.Errorf("%s is a binary file; Grep searches text files only", t.show)
		}
	default:
		return "", fmt.Errorf("%s is not a regular file", t.show)
	}
	if g.count == 0 {
		return fmt.Sprintf("no matches for %s in %s", pattern, t.show), nil
	}
	out := strings.Join(g.shown, "\n")
	if g.count > grepMax {
		out += fmt.Sprintf("\n… and %d more matching lines (narrow the pattern or the path to see them)", g.count-grepMax)
	}
	return out, nil
}

// grepper collects the matching lines of the files it is given.
type grepper struct {
	re *regexp.Regexp
	// fs is the workspace's Root, which every file is opened through.
	fs    *os.Root
	shown []string
	count int
}

// file searches one regular file (rel, relative to Dir), named show in
// the output; it reports a binary file without searching it.
func (g *grepper) file(rel, show string) (isBinary bool, err error) {
	f, err := g.fs.Open(rel)
	if err != nil {
		return false, err
	}
	defer f.Close()
	lr := newLineReader(f, grepScan)
	if binary(lr.sniff()) {
		return true, nil
	}
	for n := 1; ; n++ {
		line, _, err := lr.next()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if !g.re.Match(line) {
			continue
		}
		g.count++
		if g.count <= grepMax {
			g.shown = append(g.shown, fmt.Sprintf("%s:%d:%s", show, n, cutLine(line, false, grepLineMax, grepCut)))
		}
	}
}

// walkGrep searches every text file under dir in lexical order, skipping
// .git, files it cannot read, and symbolic links that lead to directories
// or out of Dir.
func (w *workspace) walkGrep(ctx context.Context, dir target, g *grepper) error {
	top := filepath.ToSlash(dir.rel)
	return fs.WalkDir(w.fs.FS(), top, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if d != nil && d.IsDir() && p != top {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == ".git" && p != top {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			// followed only to a regular file the Root reaches
			fi, ok := w.inside(p)
			if !ok || !fi.Mode().IsRegular() {
				return nil
			}
		case !d.Type().IsRegular():
			// A FIFO or a device would block or never end.
			return nil
		}
		_, _ = g.file(filepath.FromSlash(p), path.Join(dir.show, below(top, p)))
		return nil
	})
}
