package mcpserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGuidanceOverMCPShowsSecretsMasked: the guidance start_run and
// get_run answer with fills a secret input in as ***.
func TestGuidanceOverMCPShowsSecretsMasked(t *testing.T) {
	dir := chainsDir(t)
	src := `version: "1"
workflows:
  keyed:
    inputSchema: {type: object, required: [token], properties: {token: {type: string, writeOnly: true}}}
    initialState: wait
    states:
      wait:
        goal: "Use {input.token}"
        guidance: "Token {{ $.workflow.input.token }}"
        transitions:
          ok: {target: done, actor: human}
      done: {terminal: true}
`
	if err := os.WriteFile(filepath.Join(dir, "keyed.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, cs := serve(t, newMemBackend(dir), Options{}, &mcp.ClientOptions{})
	r, _ := call(t, cs, toolStart, map[string]any{"chain": "keyed", "inputs": map[string]any{"token": "Mcp-Secret-777"}})
	again, _ := call(t, cs, toolGet, map[string]any{"run_id": r.RunID})
	for _, got := range []Response{r, again} {
		if got.Guidance == nil || got.Guidance.Goal != "Use ***" || got.Guidance.Instructions != "Token ***" {
			t.Fatalf("%+v", got)
		}
	}
}
