// Package inputs reads the values a run is given on the command line:
// --input key=value, key=@file (a regular file of bounded size, never a
// FIFO or a device), key=@@text for a literal @, and --input-file (a YAML
// or JSON mapping). What it refuses is an Error, which stops a command
// before anything runs.
//
// It may import, of this module: chain, fsutil.
package inputs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/fsutil"
)

// maxInputFile is the most --input k=@path and --input-file read: a value
// is held in memory and may be passed on, so a path that names something
// endless (a device, a huge file) must not take the machine with it.
const maxInputFile = 8 << 20

// Error is an --input or --input-file that cannot be read. Nothing ran.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *Error) NothingRan() bool { return true }

func usagef(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Parse merges --input-file and --input flags (flags win). A value
// written key=@path is read from that file, less one trailing newline;
// key=@@text is the literal text @text, so a value from elsewhere that
// begins with @ can always be passed as it is.
func Parse(flags []string, file string) (map[string]string, error) {
	out := map[string]string{}
	if file != "" {
		data, err := readInputFile(file)
		if err != nil {
			return nil, usagef("--input-file %s: %v", file, err)
		}
		var m map[string]any
		if err := yaml.Load(data, &m); err != nil {
			return nil, usagef("--input-file %s: want a mapping of input names to values: %v", file, err)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out[k] = inputText(m[k])
		}
	}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, usagef("--input %q: write key=value (or key=@file)", f)
		}
		k = strings.TrimSpace(k)
		if !chain.IsIdentifier(k) {
			return nil, usagef("--input %q: %q is not an input name", f, k)
		}
		if lit, ok := strings.CutPrefix(v, "@@"); ok {
			v = "@" + lit
		} else if path, isFile := strings.CutPrefix(v, "@"); isFile {
			data, err := readInputFile(path)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil, usagef("--input %s=@%s: %v (write %s=@@… for a value that begins with @)", k, path, err, k)
				}
				return nil, usagef("--input %s=@%s: %v", k, path, err)
			}
			v = strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
		}
		out[k] = v
	}
	return out, nil
}

// readInputFile reads a regular file of at most maxInputFile bytes. It
// opens without blocking and refuses a FIFO, a device or a directory,
// whose read could block or never end.
func readInputFile(path string) ([]byte, error) {
	data, err := fsutil.ReadRegular(path, maxInputFile)
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			return nil, u
		}
		return nil, err
	}
	return data, nil
}

// inputText renders a value from an input file as the text of an input:
// scalars as written, lists and maps as JSON.
func inputText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any, []any:
		b, err := json.Marshal(x)
		if err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v)
}
