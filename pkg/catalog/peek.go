package catalog

import (
	"sort"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	yaml "go.yaml.in/yaml/v4"
)

// peekNames reads just the chain names of a file, without validating it:
// the catalog finds by them the one file that holds a name before loading
// it, and names a file that failed validation, so `run NAME` can report
// that file's errors instead of "unknown chain". A front-end's chains are
// named as its format names them (chain.Format.Names).
func peekNames(path string) []string {
	data, err := chain.ReadFile(path)
	if err != nil {
		return nil
	}
	var head struct {
		Name      string         `yaml:"name"`
		Workflows map[string]any `yaml:"workflows"`
	}
	if yaml.Load(data, &head) != nil {
		return nil
	}
	if head.Name != "" {
		return []string{head.Name}
	}
	for _, f := range load.Formats() {
		if f.Names == nil {
			continue
		}
		if names := f.Names(data); len(names) > 0 {
			return names
		}
	}
	var names []string
	for name := range head.Workflows {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// peekFile reads a file's chain names and script subjects alone: the
// catalog indexes a directory's tree by them.
func peekFile(path string) (names, subjects []string) {
	names = peekNames(path)
	data, err := chain.ReadFile(path)
	if err != nil {
		return names, nil
	}
	var head struct {
		Scripts map[string]any `yaml:"scripts"`
	}
	if yaml.Load(data, &head) != nil {
		return names, nil
	}
	for sub := range head.Scripts {
		subjects = append(subjects, sub)
	}
	return names, subjects
}
