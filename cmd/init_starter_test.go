package cmd

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain/schema"
	"github.com/chainrun/chainrun/pkg/iostreams"
)

// TestInitWritesAModelineAndAConfigThatExplainsItself: the chain init
// writes names the schema by its stable $id in the modeline editors
// read, and every key the config shows commented out is valid as it is
// written once uncommented.
func TestInitWritesAModelineAndAConfigThatExplainsItself(t *testing.T) {
	dir := t.TempDir()
	io, _, _, errOut := iostreams.Test()
	if code := Execute(context.Background(), io, []string{"init", dir}); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	chainFile, err := os.ReadFile(filepath.Join(dir, "chains", "hello.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(chainFile), "\n"); first != "# yaml-language-server: $schema="+schema.ID {
		t.Errorf("first line %q", first)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "chainrun.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	examples := regexp.MustCompile(`(?m)^# (\s*[a-z_]+:)`)
	if n := len(examples.FindAll(cfg, -1)); n < 10 {
		t.Fatalf("only %d commented keys in chainrun.yaml:\n%s", n, cfg)
	}
	full := filepath.Join(dir, "full.yaml")
	uncommented := examples.ReplaceAll(cfg, []byte("$1"))
	uncommented = []byte(strings.ReplaceAll(string(uncommented), "state_dir: .chainrun", "state_dir: "+filepath.Join(dir, "state")))
	if err := os.WriteFile(full, uncommented, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GW_TOKEN", "x")
	io, _, out, errOut := iostreams.Test()
	if code := Execute(context.Background(), io, []string{"validate", "--config", full, filepath.Join(dir, "chains", "hello.yaml")}); code != exitOK {
		t.Fatalf("the config's examples, uncommented: exit %d: %s\n%s", code, errOut, uncommented)
	}
	if !strings.Contains(out.String(), "ok  hello") {
		t.Errorf("validate said %q", out)
	}
}
