package project

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// wholeSettings are the config keys that hold a whole number, with the
// least value each takes and what that bound means.
var wholeSettings = []struct {
	key  string
	min  int
	hint string
}{
	{"max_parallel", 1, "1 or more (leave it unset for the default: CPUs, at least 4)"},
	{"max_parallel_llm", 0, "0 (no cap) or more"},
}

// boolSettings are the config keys that hold true or false, checked so
// that CHAINRUN_PASS_EXIT_CODE=yes is refused rather than read as false.
var boolSettings = []string{"pass_exit_code", "strict_variables"}

// textSettings are the config keys that hold one text (a directory, a
// model, a URL), checked so that a list or a mapping written there is
// refused rather than read as its Go form (state_dir: {a: 1} made a
// directory named "map[a:1]").
var textSettings = []string{"chains_dir", "state_dir", "cache_dir", "output", "default_model", "default_provider", "durability", "search_url", "search_key_header"}

// SettingError is a config value its flag would refuse, named where it
// was set (CHAINRUN_<KEY> or the file's key): exit 2.
type SettingError struct{ Msg string }

func (e *SettingError) Error() string { return e.Msg }

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *SettingError) NothingRan() bool { return true }

// EnvName is the environment variable of a config key.
func EnvName(key string) string { return "CHAINRUN_" + strings.ToUpper(key) }

// CheckEnvSettings holds CHAINRUN_<KEY> values (read with getenv) to the
// rules of their flags, naming the variable: a value that is no number
// would otherwise be read as 0 without a word, and a wrong one blamed on
// a flag never given.
func CheckEnvSettings(getenv func(string) string) error {
	for _, k := range wholeSettings {
		raw := getenv(EnvName(k.key))
		if raw == "" {
			continue
		}
		if _, err := wholeSetting(raw, k.min, k.hint); err != nil {
			return &SettingError{fmt.Sprintf("%s=%s: %v", EnvName(k.key), raw, err)}
		}
	}
	for _, k := range boolSettings {
		if raw := getenv(EnvName(k)); raw != "" && !isBool(raw) {
			return &SettingError{fmt.Sprintf("%s=%s: want true or false (or 1 or 0)", EnvName(k), raw)}
		}
	}
	return nil
}

// isBool reports whether v is true or false: a YAML boolean, or text
// strconv.ParseBool reads (true, false, 1, 0, t, f).
func isBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return true
	case string:
		_, err := strconv.ParseBool(strings.TrimSpace(x))
		return err == nil
	}
	return false
}

// CheckFileSettings does the same for the values of config file path,
// and checks its principal.
func CheckFileSettings(path string, top map[string]any) error {
	if _, err := ReadPrincipal("config file "+path+": ", top["principal"], func(string) string { return "" }); err != nil {
		return err
	}
	if _, err := dotenvFiles(path, top[dotenvKey]); err != nil {
		return &SettingError{fmt.Sprintf("config file %s: dotenv: %v", path, err)}
	}
	for _, k := range wholeSettings {
		v, ok := top[k.key]
		if !ok || v == nil {
			continue
		}
		if _, err := wholeSetting(v, k.min, k.hint); err != nil {
			return &SettingError{fmt.Sprintf("config file %s: %s: %v", path, k.key, err)}
		}
	}
	for _, k := range boolSettings {
		if v, ok := top[k]; ok && v != nil && !isBool(v) {
			return &SettingError{fmt.Sprintf("config file %s: %s: %v is not true or false", path, k, v)}
		}
	}
	for _, k := range textSettings {
		if v, ok := top[k]; ok && v != nil {
			if _, isText := v.(string); !isText {
				return &SettingError{fmt.Sprintf("config file %s: %s: %s is not text (quote it if it is meant as text)", path, k, yamlKind(v))}
			}
		}
	}
	return nil
}

// wholeSetting reads v (a number, or its text) as a whole number of at
// least min.
func wholeSetting(v any, min int, hint string) (int, error) {
	var n int
	switch x := v.(type) {
	case int:
		n = x
	case int64:
		if x > math.MaxInt || x < math.MinInt {
			return 0, fmt.Errorf("%d is out of range", x)
		}
		n = int(x)
	case uint64:
		if x > math.MaxInt {
			return 0, fmt.Errorf("%d is out of range", x)
		}
		n = int(x)
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number; want %s", x, hint)
		}
		n = i
	default:
		return 0, fmt.Errorf("%v is not a whole number; want %s", v, hint)
	}
	if n < min {
		return 0, fmt.Errorf("%d is too small; want %s", n, hint)
	}
	return n, nil
}

// yamlKind names a config value that is not what its key holds as its
// author wrote it: a list or a mapping by what it is, a scalar as it is.
func yamlKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return fmt.Sprint(v)
}
