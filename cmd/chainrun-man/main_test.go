package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A page is written for chainrun and for each of its commands, in roff
// with the manual's header and the command's name line, into a directory
// made when missing; no command writes man pages any more, so no page
// names one.
func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "deep", "er", "pages")
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"chainrun.1", "chainrun-run.1", "chainrun-runs-show.1", "chainrun-test.1", "chainrun-validate.1", "chainrun-completion-zsh.1"} {
		data, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		name := strings.TrimSuffix(page, ".1")
		if !regexp.MustCompile(`(?m)^\.TH "CHAINRUN" "1" `).MatchString(text) || !strings.Contains(text, "chainrun manual") ||
			!regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(name)+` - `).MatchString(text) {
			t.Errorf("%s:\n%.400s", page, text)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "chainrun-man.1")); err == nil {
		t.Error("a page for a man command, which chainrun no longer has")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "chainrun.1")); strings.Contains(string(data), "chainrun-man") {
		t.Error("chainrun.1 names a man command")
	}
}
