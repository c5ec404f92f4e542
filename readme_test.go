package main

import (
	"os"
	"strings"
	"testing"
)

// The README's first command is `go run`, which hides chainrun's exit
// code (it prints "exit status N" and exits 1): the README must say so
// where it promises an exit code, and how to get the real ones.
func TestReadmeSaysWhatGoRunDoesWithExitCodes(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if !strings.Contains(readme, "go run . run") {
		return
	}
	for _, want := range []string{"`go run` hides chainrun's exit code", "exit status 3", "go build -o chainrun ."} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}

// TestReadmeSaysHowToInstall: the README's install section names each
// way in (the Action, Homebrew, the container, install.sh, go install)
// with both programs where a command installs them, and links the page
// that says more.
func TestReadmeSaysHowToInstall(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Install\n")
	if !ok {
		t.Fatal("README.md has no ## Install section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, want := range []string{"uses: chainrun/chainrun@v1", "brew install chainrun/tap/chainrun", "ghcr.io/chainrun/chainrun",
		"/install.sh | sh", "go install github.com/chainrun/chainrun@latest github.com/chainrun/chainrun/cmd/chainrun-otel@latest", "docs/install.md"} {
		if !strings.Contains(section, want) {
			t.Errorf("README.md's install section does not say %q", want)
		}
	}
	if n := strings.Count(section, "\n"); n > 16 {
		t.Errorf("README.md's install section is %d lines: keep it short, docs/install.md says the rest", n)
	}
}
