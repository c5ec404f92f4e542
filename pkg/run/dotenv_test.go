package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dotenv"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// dotenvChain writes a chain file and its files into a new directory and
// loads it from there, as the catalog would.
func dotenvChain(t *testing.T, src string, files map[string]string) *chain.Chain {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := chain.LoadFile(path, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Chain
}

// TestDotenvReachesCommands: a chain's dotenv files and config's reach
// its commands, scripts and env_var pre_tools; the real environment
// wins over both, a step's env over everything, a later file over an
// earlier one, and the chain's files over config's. No value is saved
// in the result.
func TestDotenvReachesCommands(t *testing.T) {
	t.Setenv("CHAINRUN_TEST_REAL", "real")
	c := dotenvChain(t, `
name: t
dotenv: [.env, {path: .env.local, required: false}, {path: .env.missing, required: false}]
steps:
  - id: show
    type: cli
    run: echo "$FROM_FILE $OVERRIDDEN $CHAINRUN_TEST_REAL $STEP $FROM_CONFIG $BOTH"
    env: {STEP: step}
    output_var: shown
  - id: argv
    type: cli
    command: printenv
    args: [FROM_FILE]
    output_var: printed
  - id: read
    type: cli
    pre_tools: [{type: env_var, var_name: FROM_FILE, inject_as: fromfile}]
    run: echo {fromfile}
    output_var: read
output: shown
`, map[string]string{
		".env":       "FROM_FILE=file\nOVERRIDDEN=first\nCHAINRUN_TEST_REAL=dotenv\nSTEP=dotenv\nBOTH=chain\n",
		".env.local": "OVERRIDDEN='second'\n",
	})
	cfg := filepath.Join(t.TempDir(), "config.env")
	if err := os.WriteFile(cfg, []byte("FROM_CONFIG=config\nBOTH=config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := New(WithDir(t.TempDir()), WithDotenv(dotenv.File{Path: cfg})).Run(context.Background(), Request{Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	if res.Output != "file second real step config chain" {
		t.Errorf("output = %q", res.Output)
	}
	if res.Vars["printed"] != "file" || res.Vars["read"] != "file" {
		t.Errorf("vars = %v", res.Vars)
	}
	if _, set := os.LookupEnv("FROM_FILE"); set {
		t.Error("a dotenv value leaked into chainrun's own environment")
	}
}

// TestDotenvRefusals: a missing required file and a malformed line stop
// the run before anything runs (exit 2), naming the file and line.
func TestDotenvRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		files map[string]string
		want  string
	}{
		{"missing", "name: t\ndotenv: .env\nsteps:\n  - {id: a, type: cli, command: 'true'}\n", nil,
			"/.env (named at %s:2:9) does not exist; write it as {path: "},
		{"malformed", "name: t\ndotenv: [.env]\nsteps:\n  - {id: a, type: cli, command: 'true'}\n", map[string]string{".env": "A=1\n\nB: b_value\n"},
			`/.env:3: the line that begins "B" is not an assignment: write KEY=VALUE (the rest of the line is not shown)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dotenvChain(t, tc.src, tc.files)
			_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c})
			var nr interface{ NothingRan() bool }
			if !errors.As(err, &nr) || !nr.NothingRan() {
				t.Fatalf("want an error from before anything ran, got %v", err)
			}
			want := tc.want
			if strings.Contains(want, "%s") {
				want = strings.Replace(want, "%s", c.File, 1)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}
