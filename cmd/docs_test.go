package cmd

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// readDoc reads a page of docs/.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// synopses are the command lines of docs/cli.md's opening block, each with
// its continuation lines, keyed by the command they are of.
func synopses(t *testing.T) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(readDoc(t, "cli.md"), "\n") {
		if line == "" && cur != "" {
			break
		}
		switch {
		case strings.HasPrefix(line, "    chainrun "):
			words := strings.Fields(line)[1:]
			cur = words[0]
			if len(words) > 1 && (words[0] == "runs" || words[0] == "cache") && regexp.MustCompile(`^[a-z]+$`).MatchString(words[1]) {
				cur += " " + words[1]
			}
			out[cur] = append(out[cur], line)
		case strings.HasPrefix(line, "      ") && cur != "":
			out[cur] = append(out[cur], line)
		}
	}
	return out
}

var flagWord = regexp.MustCompile(`(?:^|[\s\[|(])(--?[a-z][a-z-]*)`)

// TestCLISynopsesAreTheRealFlags holds docs/cli.md's synopses, and
// runs.md's of resume, to the commands: every flag a synopsis names
// exists, and every flag of a command appears in its synopsis (cli.md
// names resume's run-shaping flags as "run's ... flags").
func TestCLISynopsesAreTheRealFlags(t *testing.T) {
	io, _, _, _ := iostreams.Test()
	root := newRootCmd(newFactory(io))
	root.InitDefaultVersionFlag() // cobra adds it when the command line runs
	syn := synopses(t)
	for _, name := range []string{"run", "resume", "runs", "runs show", "runs prune", "graph", "init", "validate", "list", "schema", "version", "mcp", "test"} {
		lines, ok := syn[name]
		if !ok {
			t.Errorf("docs/cli.md has no synopsis of %s", name)
			continue
		}
		checkSynopsis(t, root, "docs/cli.md", name, strings.Join(lines, "\n"))
	}
	resume := regexp.MustCompile("(?m)^`(chainrun resume .*)`$").FindStringSubmatch(readDoc(t, "runs.md"))
	if resume == nil {
		t.Fatal("docs/runs.md has no synopsis of resume")
	}
	checkSynopsis(t, root, "docs/runs.md", "resume", resume[1])
}

// checkSynopsis holds one synopsis (text, of command name) to the flags.
func checkSynopsis(t *testing.T, root *cobra.Command, where, name, text string) {
	t.Helper()
	cmd, _, err := root.Find(strings.Fields(name))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range flagWord.FindAllStringSubmatch(text, -1) {
		if known(cmd, m[1]) == nil && known(root, m[1]) == nil {
			t.Errorf("%s: %s has no flag %s", where, name, m[1])
		}
	}
	cmd.LocalFlags().VisitAll(func(fl *pflag.Flag) {
		if fl.Name == "help" || name == "resume" && slices.Contains(shapingFlags, fl.Name) && strings.Contains(text, "run's") {
			return
		}
		written := `--` + fl.Name + `\b`
		if fl.Shorthand != "" {
			written += `|[\s\[|]-` + fl.Shorthand + `\b`
		}
		if !regexp.MustCompile(written).MatchString(text) {
			t.Errorf("%s: the synopsis of %s does not name --%s", where, name, fl.Name)
		}
	})
}

// known is the flag of cmd (or inherited by it) that word names, or nil.
// The root's own (--version) is the root's.
func known(cmd *cobra.Command, word string) *pflag.Flag {
	if name, ok := strings.CutPrefix(word, "--"); ok {
		return cmd.Flags().Lookup(name)
	}
	return cmd.Flags().ShorthandLookup(strings.TrimPrefix(word, "-"))
}

// TestPlainProgressExampleGoesForward: the timestamps of docs/cli.md's
// plain progress example never go back.
func TestPlainProgressExampleGoesForward(t *testing.T) {
	stamps := regexp.MustCompile(`(?m)^    (\d\d:\d\d:\d\d\.\d{3}) `).FindAllStringSubmatch(readDoc(t, "cli.md"), -1)
	if len(stamps) < 3 {
		t.Fatalf("no progress example in docs/cli.md")
	}
	for i := 1; i < len(stamps); i++ {
		if stamps[i][1] < stamps[i-1][1] {
			t.Errorf("docs/cli.md: %s comes after %s", stamps[i][1], stamps[i-1][1])
		}
	}
}

// TestSchemaPathIsOneEverywhere: every page (and schema --help) that
// tells an editor where chain.schema.json is says the same.
func TestSchemaPathIsOneEverywhere(t *testing.T) {
	io, _, _, _ := iostreams.Test()
	texts := map[string]string{"chainrun schema --help": newSchemaCmd(newFactory(io)).Long}
	for _, page := range []string{"chain-format.md", "getting-started.md", "cli.md", "workflows.md"} {
		texts["docs/"+page] = readDoc(t, page)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	texts["README.md"] = string(readme)
	paths := map[string][]string{}
	for where, text := range texts {
		for _, m := range regexp.MustCompile(`\$schema=(\S+?)[\x60\s]`).FindAllStringSubmatch(text, -1) {
			paths[m[1]] = append(paths[m[1]], where)
		}
	}
	if len(paths) != 1 {
		t.Errorf("$schema paths differ: %v", paths)
	}
}

// TestWorkflowsExampleRunsAsWritten runs the reference 000 document of
// docs/workflows.md as the page says: saved beside the bundled chains'
// bin/, it pauses at ready_to_deploy.
func TestWorkflowsExampleRunsAsWritten(t *testing.T) {
	page := readDoc(t, "workflows.md")
	_, after, ok := strings.Cut(page, "it runs as written")
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(after)
	if !ok || m == nil {
		t.Fatal("docs/workflows.md: no example after \"it runs as written\"")
	}
	dir := t.TempDir()
	chains := filepath.Join(dir, "chains")
	if err := os.CopyFS(filepath.Join(chains, "bin"), os.DirFS(filepath.Join("..", "chains", "bin"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(chains, "reference.yaml"), []byte(m[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("CHAINRUN_CACHE_DIR", filepath.Join(dir, "cache"))
	io, _, out, errOut := iostreams.Test()
	code := Execute(context.Background(), io, []string{"run", "deploy_pipeline", "--chains-dir", chains, "--input", "service=api", "-q"})
	if code != exitPaused || !strings.Contains(out.String(), "paused at ready_to_deploy") {
		t.Errorf("exit %d, want 3 (paused)\n%s%s", code, out, errOut)
	}
}

// TestGettingStartedChain: the page's commits chain validates, and given
// a directory that is no git repository it fails saying so.
func TestGettingStartedChain(t *testing.T) {
	page := readDoc(t, "getting-started.md")
	m := regexp.MustCompile("(?s)Write `chains/commits.yaml`.*?```yaml\n(.*?)```").FindStringSubmatch(page)
	if m == nil {
		t.Fatal("docs/getting-started.md: no commits chain")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "chains"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "chains", "commits.yaml")
	if err := os.WriteFile(file, []byte(m[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHAINRUN_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("ANTHROPIC_API_KEY", "not-used")
	io, _, out, errOut := iostreams.Test()
	if code := Execute(context.Background(), io, []string{"validate", file}); code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
	}
	io, _, out, errOut = iostreams.Test()
	code := Execute(context.Background(), io, []string{"run", file, "--input", "repo=" + dir, "-q"})
	if code != exitFailed || !strings.Contains(errOut.String(), "not a git repository: "+dir+" (pass --input repo=PATH)") {
		t.Errorf("exit %d, want 1 saying what repo must be\n%s%s", code, out, errOut)
	}
}
