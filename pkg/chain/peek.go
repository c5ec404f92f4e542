package chain

import (
	"sort"

	yaml "go.yaml.in/yaml/v4"
)

// PeekNames reads just the chain names of a file, without validating it:
// the catalog (pkg/catalog) finds by them the one file that holds a name
// before loading it, and names a file that failed validation, so `run
// NAME` can report that file's errors instead of "unknown chain".
func PeekNames(path string) []string {
	data, err := ReadFile(path)
	if err != nil {
		return nil
	}
	var head struct {
		Name      string         `yaml:"name"`
		Workflows map[string]any `yaml:"workflows"`
		// a task chain is named by its id
		ID    string `yaml:"id"`
		Tasks any    `yaml:"tasks"`
	}
	if yaml.Load(data, &head) != nil {
		return nil
	}
	if head.Name != "" {
		return []string{head.Name}
	}
	if head.ID != "" && head.Tasks != nil {
		return []string{head.ID}
	}
	var names []string
	for name := range head.Workflows {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// PeekFile reads a file's chain names and script subjects alone: the
// catalog indexes a directory's tree by them (pkg/catalog).
func PeekFile(path string) (names, subjects []string) {
	names = PeekNames(path)
	data, err := ReadFile(path)
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
