package project

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
)

// Layers is chainrun's configuration, each key read from the first layer
// that has it: a flag given on the command line, then CHAINRUN_<KEY>,
// then the config file, then a default, then the flag's own default.
// It does what a general configuration library would for the dozen keys
// chainrun has, and reads the config file once, with the YAML library
// that reads the chains (see docs/performance.md for what that saves at
// every start).
type Layers struct {
	flags    map[string]Flag
	file     map[string]any
	path     string
	defaults map[string]any
	getenv   func(string) string
}

// Flag is a command-line flag bound to a key, as the command line sees
// it: whether it was given, its value and its default, as text.
type Flag struct {
	Changed func() bool
	Value   func() string
	Default string
}

// NewLayers returns empty layers reading the environment through getenv.
func NewLayers(getenv func(string) string) *Layers {
	return &Layers{flags: map[string]Flag{}, defaults: map[string]any{}, getenv: getenv}
}

// Bind ties a flag to a key.
func (l *Layers) Bind(key string, f Flag) { l.flags[key] = f }

// SetDefault gives a key its value when no flag, variable or file sets it.
func (l *Layers) SetDefault(key string, v any) { l.defaults[key] = v }

// SetFile is the config file read (path) and its top-level keys.
func (l *Layers) SetFile(path string, top map[string]any) {
	l.path, l.file = path, maps.Clone(top)
}

// SetInFile replaces a value of the file's layer (a relative directory
// made relative to the file).
func (l *Layers) SetInFile(key string, v any) {
	if l.file == nil {
		l.file = map[string]any{}
	}
	l.file[key] = v
}

// File is the config file read, "" when none was.
func (l *Layers) File() string { return l.path }

// Get is the key's value from the first layer that has it, nil when none
// has. An empty variable counts as unset.
func (l *Layers) Get(key string) any {
	if f, ok := l.flags[key]; ok && f.Changed() {
		return f.Value()
	}
	if v := l.getenv(EnvName(key)); v != "" {
		return v
	}
	if v, ok := l.file[key]; ok && v != nil {
		return v
	}
	if v, ok := l.defaults[key]; ok {
		return v
	}
	if f, ok := l.flags[key]; ok {
		return f.Default
	}
	return nil
}

// GetString is the key's value as text ("" when unset).
func (l *Layers) GetString(key string) string {
	switch v := l.Get(key).(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// GetInt is the key's value as a whole number (0 when unset or not one;
// settings.go checks the variables and the file before they are read).
func (l *Layers) GetInt(key string) int {
	switch v := l.Get(key).(type) {
	case int:
		return v
	case int64:
		return int(v)
	case uint64:
		return int(v)
	case float64:
		return int(v)
	case string:
		n, _ := strconv.Atoi(strings.TrimSpace(v))
		return n
	}
	return 0
}

// GetBool is the key's value as true or false (false when unset or not
// one).
func (l *Layers) GetBool(key string) bool {
	switch v := l.Get(key).(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(strings.TrimSpace(v))
		return b
	}
	return false
}
