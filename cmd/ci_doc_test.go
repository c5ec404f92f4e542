package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCIDocWritesNoOutputChainrunWrites: no workflow in docs/ci.md
// appends to $GITHUB_OUTPUT an output chainrun appends itself in GitHub
// Actions mode (run_id, status, exit_code, output): the key would come
// twice, and the example would hide that chainrun writes it.
func TestCIDocWritesNoOutputChainrunWrites(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	own := regexp.MustCompile(`(?m)^.*\b(run_id|status|exit_code|output)(=|<<).*>>\s*"?\$\{?GITHUB_OUTPUT.*$`)
	for _, line := range own.FindAll(page, -1) {
		t.Errorf("docs/ci.md writes an output chainrun writes: %s", line)
	}
	if !regexp.MustCompile(`steps\.run\.outputs\.status`).Match(page) {
		t.Error("docs/ci.md's deploy workflow does not read the status chainrun writes")
	}
}
