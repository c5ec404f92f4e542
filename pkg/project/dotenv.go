package project

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/dotenv"
)

// dotenvKey is the config key of the dotenv files every run reads.
const dotenvKey = "dotenv"

// Dotenv is config dotenv as files to read: CHAINRUN_DOTENV (paths
// separated by commas, relative to the current directory, each
// required), else the file's key (a path, or a list of paths and
// {path, required: false}, relative to the config file). The file's
// value was checked when it loaded (CheckFileSettings).
func Dotenv(l *Layers) []dotenv.File {
	if raw := l.getenv(EnvName(dotenvKey)); raw != "" {
		var out []dotenv.File
		for _, p := range strings.Split(raw, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, dotenv.File{Path: p, From: EnvName(dotenvKey)})
			}
		}
		return out
	}
	files, _ := dotenvFiles(l.path, l.file[dotenvKey])
	return files
}

// dotenvFiles reads a config file's dotenv value (nil: none), paths
// made relative to the file at path.
func dotenvFiles(path string, v any) ([]dotenv.File, error) {
	items, ok := v.([]any)
	if !ok && v != nil {
		items = []any{v}
	}
	var out []dotenv.File
	for _, item := range items {
		f := dotenv.File{From: "config file " + path}
		switch x := item.(type) {
		case string:
			f.Path = x
		case map[string]any:
			for k, val := range x {
				switch k {
				case "path":
					f.Path, _ = val.(string)
				case "required":
					req, isBool := val.(bool)
					if !isBool {
						return nil, fmt.Errorf("required: %v is not true or false", val)
					}
					f.Optional = !req
				default:
					return nil, fmt.Errorf("unknown key %q (keys are path, required)", k)
				}
			}
		}
		if strings.TrimSpace(f.Path) == "" {
			return nil, fmt.Errorf("%v: write a file's path, or {path, required: false}", item)
		}
		if !filepath.IsAbs(f.Path) {
			f.Path = filepath.Join(filepath.Dir(path), f.Path)
		}
		out = append(out, f)
	}
	return out, nil
}

// KeysGetenv reads the variables model providers take their keys and
// addresses from (ANTHROPIC_API_KEY, OPENAI_BASE_URL, …): the real
// environment (lookup) when it sets them to something, then config's
// dotenv files — the project's .env,
// where a team keeps them. A chain's own dotenv files are not read here:
// a key follows the machine and its project, never a chain file.
func KeysGetenv(l *Layers, lookup func(string) (string, bool)) (func(string) string, error) {
	vars, err := DotenvVars(l)
	if err != nil {
		return nil, err
	}
	return func(k string) string {
		// an empty key is no key: the file's is used then
		if v, _ := lookup(k); v != "" {
			return v
		}
		return vars[k]
	}, nil
}

// DotenvVars are the variables config's dotenv files set (nil: none).
func DotenvVars(l *Layers) (map[string]string, error) {
	files := Dotenv(l)
	if len(files) == 0 {
		return nil, nil
	}
	return dotenv.Read(files)
}
