package project

import (
	"os"
	"path/filepath"
	"testing"
)

// A project's directory is the nearest one upwards holding chainrun.yaml,
// else the repository's root (the directory holding .git), else the
// working directory itself.
func TestRoot(t *testing.T) {
	top := t.TempDir()
	mk := func(parts ...string) string {
		p := filepath.Join(append([]string{top}, parts...)...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	touch := func(p string) {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := mk("repo")
	mk("repo", ".git")
	sub := mk("repo", "svc", "api", "cmd")
	conf := mk("repo", "svc")
	touch(filepath.Join(conf, "chainrun.yaml"))
	plain := mk("plain", "a", "b")
	outside := mk("repo2", "x")
	touch(filepath.Join(top, "repo2", "chainrun.yaml"))
	for _, tc := range []struct{ wd, want string }{
		{sub, conf},                            // the config file's directory, below the repository
		{conf, conf},                           // in it
		{filepath.Join(repo), repo},            // the repository, no config up to its root
		{mk("repo", "docs"), repo},             // a directory of the repository without one
		{plain, plain},                         // neither: the working directory
		{outside, filepath.Join(top, "repo2")}, // a config file without a repository
	} {
		if got := Root(tc.wd); got != tc.want {
			t.Errorf("Root(%s) = %s, want %s", tc.wd, got, tc.want)
		}
	}
}
