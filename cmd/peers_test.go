package cmd

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/iostreams"
)

// TestFlowgateV06FilesLoad validates every workflow file of mcp-flowgate's
// v0.6 branch (feat/agent-resolver at 08c09bd, Apache-2.0: its LICENSE is
// beside them), kept in testdata/flowgate-v06 as its repository lays them
// out, with the scripts-library/ its capabilities run. Each loads, but for
// those below, which are refused naming the feature they need.
func TestFlowgateV06FilesLoad(t *testing.T) {
	refused := map[string]string{
		"examples/ai-review-swarm/gateway.yaml":            `unknown field "evidence"`,
		"examples/authoring-workflow.yaml":                 `unknown kind "structural_analysis"`,
		"examples/pattern-guidance-templates/gateway.yaml": `guard kind "guidance_acknowledged" is not supported`,
		"examples/pattern-scripts/gateway.yaml":            `guard kind "script_acknowledged" is not supported`,
		"examples/smoke-ete/gateway.yaml":                  `unknown kind "pipeline"`,
	}
	root := filepath.Join("testdata", "flowgate-v06")
	chains := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", t.TempDir())
	files, loaded := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" || strings.Contains(path, "scripts-library") {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		io, _, out, errOut := iostreams.Test()
		code := Execute(context.Background(), io, []string{"validate", "--chains-dir", chains, path})
		want, refuse := refused[filepath.ToSlash(rel)]
		switch {
		case code == 0 && !refuse:
			loaded++
		case code == 0:
			t.Errorf("%s loads: take it off the refused list", rel)
		case !refuse:
			t.Errorf("%s: exit %d\n%s%s", rel, code, out, errOut)
		case code != exitUsage || !strings.Contains(errOut.String(), want):
			t.Errorf("%s: exit %d, want 2 naming %s\n%s", rel, code, want, errOut)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 64 {
		t.Errorf("%d workflow files, want the branch's 64", files)
	}
	t.Logf("%d of %d files load", loaded, files)
}
