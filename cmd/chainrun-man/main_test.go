package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A page is written for chainrun and for each of its commands, in roff
// with the manual's header; hidden commands have none.
func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man")
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"chainrun.1", "chainrun-run.1", "chainrun-runs-show.1", "chainrun-test.1"} {
		data, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), `.nh`) || !strings.Contains(string(data), `.TH "CHAINRUN" "1"`) || !strings.Contains(string(data), "chainrun manual") {
			t.Errorf("%s:\n%.300s", page, data)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "chainrun-man.1")); err == nil {
		t.Error("a page for a man command, which chainrun no longer has")
	}
}
