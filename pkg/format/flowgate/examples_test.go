package flowgate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestMCPFlowgateExamplesLoad: the files of mcp-flowgate's examples
// that use pipeline, structural_analysis, dry_run, registry and
// branches' evidence load (the review swarm with the connection the
// gateway configures added).
func TestMCPFlowgateExamplesLoad(t *testing.T) {
	for _, f := range []string{"smoke-ete.yaml", "ai-review-swarm.yaml", "authoring-workflow.yaml"} {
		if _, err := chain.LoadFileAs(filepath.Join("testdata", "flowgate", f), Options{}, front); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join("testdata", "flowgate", "LICENSE")); err != nil {
		t.Error("the examples are kept without their license")
	}
}
