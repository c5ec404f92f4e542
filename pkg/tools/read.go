package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

const (
	// readLimit is how many lines Read returns when not told.
	readLimit = 2000
	// readLineMax is how many characters of a line Read shows.
	readLineMax = 2000
	readCut     = " … [line cut at 2000 characters]"
)

var readTool = tool{
	description: "Reads a text file of the working directory. Returns its lines numbered like `cat -n` " +
		"(the line number, a tab, the line), from line `offset` (1-based, default 1) for `limit` lines " +
		"(default 2000); lines longer than 2000 characters are cut. Read a file before you edit it, and " +
		"read a long one in parts with offset and limit. Directories and binary files are refused: " +
		"use Glob to find files.",
	params: []param{
		{name: "file_path", kind: "string", required: true, description: "The file to read: a path relative to the working directory, or absolute inside it."},
		{name: "offset", kind: "integer", description: "The line number to start at, 1-based. Default 1."},
		{name: "limit", kind: "integer", description: "How many lines to read. Default 2000."},
	},
	run: read,
}

func read(ctx context.Context, w *workspace, v values) (string, error) {
	name := v.str("file_path")
	if name == "" {
		return "", errEmpty("file_path")
	}
	offset, limit := int64(1), int64(readLimit)
	if n, ok := v.int("offset"); ok {
		if n < 0 {
			return "", fmt.Errorf("offset must be a line number from 1, not %d", n)
		}
		offset = max(n, 1)
	}
	if n, ok := v.int("limit"); ok {
		if n < 0 {
			return "", fmt.Errorf("limit must be a number of lines, not %d", n)
		}
		if n > 0 {
			limit = n
		}
	}
	t, err := w.resolve(name)
	if err != nil {
		return "", err
	}
	f, err := w.openText(t)
	if err != nil {
		return "", err
	}
	defer f.Close()
	lr := newLineReader(f, 4*readLineMax+4)
	if binary(lr.sniff()) {
		return "", fmt.Errorf("%s is a binary file; Read shows text files only", t.show)
	}
	var b strings.Builder
	var n int64
	for {
		line, cut, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", t.show, err)
		}
		n++
		if n < offset {
			continue
		}
		if n-offset >= limit {
			fmt.Fprintf(&b, "… (more lines follow; read on with offset %d)\n", n)
			break
		}
		fmt.Fprintf(&b, "%6d\t%s\n", n, cutLine(line, cut, readLineMax, readCut))
	}
	switch {
	case n == 0:
		return fmt.Sprintf("(%s is empty)", t.show), nil
	case n < offset:
		return "", fmt.Errorf("offset %d is past the end of %s, which has %d lines", offset, t.show, n)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// bare is an error of the os package without the absolute path it names,
// for a message that names the path as the model knows it.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
