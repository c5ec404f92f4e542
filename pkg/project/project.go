// Package project says where chainrun's files are found: the project's
// chainrun.yaml, looked for upwards as go-task looks for its Taskfile, and
// the user's config, cache and state directories under the XDG base
// directories; the layers a setting is read from, flag > CHAINRUN_<KEY> >
// file > default (layers.go); what a config value must be to be read
// (settings.go); who runs act for, the principal of config and CHAINRUN_PRINCIPAL_*
// (principal.go); and the dotenv files config names (dotenv.go).
//
// It may import, of this module: dotenv, fsutil.
package project

import (
	"os"
	"path/filepath"
)

// ConfigFile is chainrun.yaml in the current directory or the nearest
// parent holding one, stopping after the directory that holds .git (the
// repository's root) or at the filesystem root; "" if none. A file in the
// current directory is named as ./chainrun.yaml was. Anything of that name
// counts: one that is a directory or a link to nothing is an error when
// read, rather than a config silently passed by.
func ConfigFile() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; {
		p := filepath.Join(dir, "chainrun.yaml")
		// whatever is there is meant as the config (a directory, a link
		// to nothing): reading it says what is wrong, not passing it by
		if _, err := os.Lstat(p); err == nil {
			if dir == wd {
				return "chainrun.yaml"
			}
			return p
		}
		parent := filepath.Dir(dir)
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil || parent == dir {
			return ""
		}
		dir = parent
	}
}

// UserConfigFile is $XDG_CONFIG_HOME/chainrun/config.yaml ("" without a
// home directory).
func UserConfigFile() string {
	dir, ok := UserDir("XDG_CONFIG_HOME", ".config")
	if !ok {
		return ""
	}
	return filepath.Join(dir, "config.yaml")
}

// UserDir is chainrun's directory under the XDG base directory that the
// variable xdg names, else under home/fallback; false without a home.
func UserDir(xdg, fallback string) (string, bool) {
	base := os.Getenv(xdg)
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		base = filepath.Join(home, fallback)
	}
	return filepath.Join(base, "chainrun"), true
}

// Root is the directory of the project the working directory wd is in:
// the nearest directory upwards holding chainrun.yaml, else the
// repository's root (the nearest holding .git), else wd itself. A
// project's saved runs are those started there or below.
func Root(wd string) string {
	for dir := wd; ; {
		if st, err := os.Stat(filepath.Join(dir, "chainrun.yaml")); err == nil && !st.IsDir() {
			return dir
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}
