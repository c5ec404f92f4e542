package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"
)

// parseInputs merges --input-file and --input flags (flags win). A value
// written key=@path is read from that file, less one trailing newline.
func parseInputs(flags []string, file string) (map[string]string, error) {
	out := map[string]string{}
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, usagef("--input-file: %v", err)
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
		if path, isFile := strings.CutPrefix(v, "@"); isFile {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, usagef("--input %s=@%s: %v", k, path, err)
			}
			v = strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
		}
		out[k] = v
	}
	return out, nil
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
