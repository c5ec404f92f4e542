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
