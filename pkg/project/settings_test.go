package project

import (
	"strings"
	"testing"
)

func TestWholeSetting(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want int
		err  string
	}{
		{3, 3, ""}, {int64(4), 4, ""}, {uint64(5), 5, ""}, {" 6 ", 6, ""},
		{"abc", 0, `"abc" is not a whole number; want 1 or more`},
		{0, 0, "0 is too small; want 1 or more"},
		{uint64(1 << 63), 0, "out of range"},
		{2.5, 0, "2.5 is not a whole number"},
	} {
		n, err := wholeSetting(tt.v, 1, "1 or more")
		if tt.err == "" && (err != nil || n != tt.want) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%v: %d %v", tt.v, n, err)
		}
	}
}

func TestBoolSettings(t *testing.T) {
	for _, tt := range []struct {
		env string
		err string
	}{
		{"", ""}, {"true", ""}, {"0", ""}, {" false ", ""},
		{"yes", "CHAINRUN_PASS_EXIT_CODE=yes: want true or false (or 1 or 0)"},
	} {
		err := CheckEnvSettings(func(k string) string { return map[string]string{"CHAINRUN_PASS_EXIT_CODE": tt.env}[k] })
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("%q: %v", tt.env, err)
		}
	}
	for _, tt := range []struct {
		v   any
		err string
	}{
		{true, ""}, {"1", ""}, {nil, ""},
		{"on", "config file c.yaml: pass_exit_code: on is not true or false"},
		{3, "config file c.yaml: pass_exit_code: 3 is not true or false"},
	} {
		err := CheckFileSettings("c.yaml", map[string]any{"pass_exit_code": tt.v})
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("%v: %v", tt.v, err)
		}
	}
}

// strict_variables holds true or false, and the keys that hold one text
// (a directory, a model, a URL) refuse a list, a mapping, a number or a
// boolean, naming the file and the key: none is read as its Go form.
func TestTypedFileSettings(t *testing.T) {
	for _, tt := range []struct {
		key string
		v   any
		err string
	}{
		{"strict_variables", false, ""},
		{"strict_variables", "maybe", "config file c.yaml: strict_variables: maybe is not true or false"},
		{"strict_variables", []any{false}, "config file c.yaml: strict_variables: [false] is not true or false"},
		{"state_dir", "runs", ""},
		{"state_dir", map[string]any{"a": 1}, "config file c.yaml: state_dir: a mapping is not text (quote it if it is meant as text)"},
		{"default_model", []any{"x"}, "config file c.yaml: default_model: a list is not text (quote it if it is meant as text)"},
		{"cache_dir", true, "config file c.yaml: cache_dir: true is not text (quote it if it is meant as text)"},
		{"search_url", 5, "config file c.yaml: search_url: 5 is not text (quote it if it is meant as text)"},
		{"output", nil, ""},
	} {
		err := CheckFileSettings("c.yaml", map[string]any{tt.key: tt.v})
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("%s: %v: %v", tt.key, tt.v, err)
		}
	}
}
