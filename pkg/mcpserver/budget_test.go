package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAnExpressionAskingForGigabytesFailsItsRunOnly: a client whose
// inputs make a transform build gigabytes gets a failed run naming the
// expression budget; the server, which drives every run in one process,
// goes on serving.
func TestAnExpressionAskingForGigabytesFailsItsRunOnly(t *testing.T) {
	dir := chainsDir(t)
	src := "name: grow\ninputs: [n]\nsteps:\n  - {id: t, type: transform, expr: 'len(reduce(1..int(input.n), #acc + #acc, \"ab\"))', output_var: out}\noutput: out\n"
	if err := os.WriteFile(filepath.Join(dir, "grow.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, cs := serve(t, newMemBackend(dir), Options{}, &mcp.ClientOptions{})
	for _, n := range []int{64, 40} {
		r, _ := call(t, cs, toolStart, map[string]any{"chain": "grow", "inputs": map[string]any{"n": n}})
		if r.Status != "failed" || !strings.Contains(r.Error, "an expression may build") {
			t.Fatalf("n=%d: %+v", n, r)
		}
	}
	ok, _ := call(t, cs, toolStart, map[string]any{"chain": "grow", "inputs": map[string]any{"n": 3}})
	if ok.Status != "succeeded" {
		t.Fatalf("the server no longer runs chains: %+v", ok)
	}
}
