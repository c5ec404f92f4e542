package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// Every command chainrun prints to be pasted begins with chainrun as the
// user ran it: ./chainrun when they typed that (getting-started builds
// it there, not on PATH).
func TestHintsNameChainrunAsRun(t *testing.T) {
	saved := os.Args[0]
	defer func() { os.Args[0] = saved }()
	dir := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	files := map[string]string{
		"gate.yaml":   "name: gate\nsteps:\n  - {id: ok, type: gate, prompt: Ship?}\n",
		"broken.yaml": "name: broken\nsteps:\n  - {id: a, type: cli, run: 'exit 3'}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	starter := filepath.Join(t.TempDir(), "new project")
	abs, _ := filepath.Abs("build/chainrun")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "gate", "--chains-dir", dir}, "build/chainrun resume "},
		{[]string{"run", "broken", "--chains-dir", dir}, "resume it with: build/chainrun resume "},
		{[]string{"run", "gate", "--inptu", "x"}, "see build/chainrun run --help"},
		{[]string{"runs", "show"}, "see build/chainrun runs show --help"},
		{[]string{"nosuch"}, "Run 'build/chainrun --help' for usage."},
		{[]string{"init", starter}, "try: cd '" + starter + "' && " + abs + " run hello"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			os.Args[0] = "build/chainrun"
			io, _, out, errOut := iostreams.Test()
			Execute(context.Background(), io, tc.args)
			if all := out.String() + errOut.String(); !strings.Contains(all, tc.want) {
				t.Errorf("no %q in:\n%s", tc.want, all)
			}
		})
	}
}
