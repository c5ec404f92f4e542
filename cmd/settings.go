package cmd

import (
	"os"
	"strings"

	"github.com/chainrun/chainrun/pkg/project"
)

// intKeys are the config keys that hold a whole number, with the least
// value each takes and what that bound means.
var intKeys = []struct {
	key  string
	min  int
	hint string
}{
	{keyMaxParallel, 1, "1 or more (leave it unset for the default: CPUs, at least 4)"},
	{keyMaxParallelLLM, 0, "0 (no cap) or more"},
}

// envName is the environment variable of a config key.
func envName(key string) string { return "CHAINRUN_" + strings.ToUpper(key) }

// checkEnvSettings holds CHAINRUN_<KEY> values to the rules of their
// flags, naming the variable: a value that is no number would otherwise be
// read as 0 without a word, and a wrong one blamed on a flag never given.
func checkEnvSettings() error {
	for _, k := range intKeys {
		raw := os.Getenv(envName(k.key))
		if raw == "" {
			continue
		}
		if _, err := project.WholeNumber(raw, k.min, k.hint); err != nil {
			return usagef("%s=%s: %v", envName(k.key), raw, err)
		}
	}
	return nil
}

// checkFileSettings does the same for a config file's values.
func checkFileSettings(path string, top map[string]any) error {
	for _, k := range intKeys {
		v, ok := top[k.key]
		if !ok || v == nil {
			continue
		}
		if _, err := project.WholeNumber(v, k.min, k.hint); err != nil {
			return usagef("config file %s: %s: %v", path, k.key, err)
		}
	}
	return nil
}
