package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
)

var writeTool = tool{
	description: "Writes a file of the working directory, replacing it if it exists and creating missing " +
		"parent directories. Read an existing file before you replace it; to change part of a file, " +
		"use Edit.",
	params: []param{
		{name: "file_path", kind: "string", required: true, description: "The file to write: a path relative to the working directory, or absolute inside it."},
		{name: "content", kind: "string", required: true, description: "The complete new content of the file."},
	},
	run: write,
}

var editTool = tool{
	description: "Replaces one exact piece of text in a file of the working directory. old_string must " +
		"match the file exactly, whitespace and indentation included (without the line numbers Read " +
		"shows), and occur exactly once: include enough surrounding lines to make it unique. Read the " +
		"file first. Use Write to create a file.",
	params: []param{
		{name: "file_path", kind: "string", required: true, description: "The file to edit: a path relative to the working directory, or absolute inside it."},
		{name: "old_string", kind: "string", required: true, description: "The exact text to replace; it must occur exactly once in the file."},
		{name: "new_string", kind: "string", required: true, description: "The text to put in its place (empty to delete it); must differ from old_string."},
	},
	run: edit,
}

func write(ctx context.Context, w *workspace, v values) (string, error) {
	name, content := v.str("file_path"), v.str("content")
	if name == "" {
		return "", errEmpty("file_path")
	}
	t, err := w.resolve(name)
	if err != nil {
		return "", err
	}
	perm := fs.FileMode(0) // a new file: 0666 less the umask, as an editor makes it
	fi, err := w.stat(t)
	switch {
	case Escapes(err):
		return "", w.fail(err, t, "write")
	case err == nil && fi.IsDir():
		return "", fmt.Errorf("%s is a directory, not a file", t.show)
	case err == nil && !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", t.show)
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("cannot write %s: %w", t.show, bare(err))
	}
	defer lockFile(t.real)()
	if err := w.fs.MkdirAll(filepath.Dir(t.rel), 0o755); err != nil {
		if Escapes(err) {
			return "", w.fail(err, t, "write")
		}
		return "", fmt.Errorf("cannot create the directory of %s: %w", t.show, bare(err))
	}
	if err := w.writeAtomic(t, []byte(content), perm); err != nil {
		return "", w.fail(err, t, "write")
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(content), t.show), nil
}

func edit(ctx context.Context, w *workspace, v values) (string, error) {
	name, old, repl := v.str("file_path"), v.str("old_string"), v.str("new_string")
	switch {
	case name == "":
		return "", errEmpty("file_path")
	case old == "":
		return "", errors.New("old_string must not be empty; to create a file, use Write")
	case old == repl:
		return "", errors.New("old_string and new_string are the same: there is nothing to change")
	}
	t, err := w.resolve(name)
	if err != nil {
		return "", err
	}
	defer lockFile(t.real)()
	f, err := w.openText(t)
	if err != nil {
		return "", err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return "", fmt.Errorf("cannot read %s: %w", t.show, bare(err))
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", t.show, bare(err))
	}
	if binary(data) {
		return "", fmt.Errorf("%s is a binary file; Edit changes text files only", t.show)
	}
	switch n := occurrences(data, []byte(old)); {
	case n == 0:
		return "", fmt.Errorf("old_string not found in %s: it must match the file exactly, whitespace and indentation included; Read the file to see its current text", t.show)
	case n > 1:
		return "", fmt.Errorf("old_string occurs %d times in %s; include more surrounding context so that it matches exactly once", n, t.show)
	}
	at := bytes.Index(data, []byte(old))
	out := make([]byte, 0, len(data)-len(old)+len(repl))
	out = append(append(append(out, data[:at]...), repl...), data[at+len(old):]...)
	if err := w.writeAtomic(t, out, fi.Mode().Perm()); err != nil {
		return "", w.fail(err, t, "write")
	}
	line := bytes.Count(data[:at], []byte("\n")) + 1
	return fmt.Sprintf("edited %s at line %d: replaced %s with %s", t.show, line, lines(old), lines(repl)), nil
}

// occurrences counts where sub occurs in data without overlap, and
// reports as 2 a single one that overlaps another: "aa" is ambiguous in
// "aaa" and must not count as unique.
func occurrences(data, sub []byte) int {
	n := bytes.Count(data, sub)
	if n == 1 {
		at := bytes.Index(data, sub)
		if bytes.Contains(data[at+1:], sub) {
			n = 2
		}
	}
	return n
}

// lines says how many lines a piece of text spans.
func lines(s string) string {
	n := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
	switch {
	case s == "":
		return "nothing"
	case n == 1:
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// fileLocks serialise the writes of one file within the process: a tool
// loop runs a turn's calls together, and two Edits of the same file in one
// turn must both apply, not have the second write over the first. A path
// hashes to one of a fixed set of locks, so that memory stays bounded.
var fileLocks [64]sync.Mutex

// lockFile locks the file at real (a resolved path) and returns the unlock.
func lockFile(real string) func() {
	h := fnv.New32a()
	h.Write([]byte(real))
	mu := &fileLocks[h.Sum32()%uint32(len(fileLocks))]
	mu.Lock()
	return mu.Unlock
}
