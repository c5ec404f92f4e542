package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestUndeclaredConnectionIsPending: a file without connections: may name
// one (mcp-flowgate's capabilities leave them to the operator); validate
// warns of it, a run refuses it before anything runs, also when a calling
// workflow reaches it, and a connection of the config wires it.
func TestUndeclaredConnectionIsPending(t *testing.T) {
	root := t.TempDir()
	capability := flowOf("", `      a:
        transitions:
          go: {target: b, actor: deterministic, executor: {kind: mcp, connection: github_mcp, tool: open_pr}}
      b: {terminal: true}
`)
	caller := strings.Replace(flowOf("", `      a:
        transitions:
          first: {target: b, actor: deterministic, executor: {kind: noop}}
      b:
        transitions:
          call: {target: c, actor: deterministic, executor: {kind: workflow, definitionId: w}}
      c: {terminal: true}
`), "  w:\n", "  caller:\n", 1)
	for name, src := range map[string]string{"cap.yaml": capability, "flow.yaml": caller} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib := &catalog.Library{Dir: root}
	r := Resolvers{Workflows: lib.FindWorkflow}
	for _, tc := range []struct{ file, at, reached string }{
		{"cap.yaml", "cap.yaml:7:71", ""},
		{"flow.yaml", "cap.yaml:7:71", "(reached from " + filepath.Join(root, "flow.yaml") + ":10"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			l, err := chain.LoadFile(filepath.Join(root, tc.file), chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := CheckCalls(l.Chain, r); err != nil {
				t.Errorf("CheckCalls: %v", err)
			}
			want := `transition "go" executor: no mcp connection is named "github_mcp": declare it under connections: in the config file (or the chain file)`
			warned := PendingDefinitions(l.Chain, r)
			if len(warned) != 1 || !strings.Contains(warned[0].String(), tc.at+": warning: "+want+" (running it would stop here)") {
				t.Errorf("PendingDefinitions: %v", warned)
			}
			dir := t.TempDir()
			res, err := New(WithDir(dir), WithWorkflows(lib.FindWorkflow)).Run(context.Background(), Request{Chain: l.Chain})
			var pe *response.PreflightError
			if res != nil || !errors.As(err, &pe) || pe.Kind != response.Pending || !strings.Contains(err.Error(), want) ||
				!strings.Contains(err.Error(), tc.reached) || !strings.HasSuffix(err.Error(), "nothing was run") {
				t.Errorf("run: %v", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("a refused run left %v", entries)
			}
		})
	}
	// the config's connection wires it; a near name is offered
	configured := map[string]*chain.Connection{"github_mcq": {Name: "github_mcq", Kind: chain.ConnMCP, Command: "srv"}}
	l, err := chain.LoadFile(filepath.Join(root, "cap.yaml"), chain.Options{Connections: configured})
	if err != nil {
		t.Fatal(err)
	}
	if w := PendingDefinitions(l.Chain, r); len(w) != 1 || !strings.Contains(w[0].Message, "(did you mean github_mcq?); the config's mcp connections: github_mcq") {
		t.Errorf("with another configured: %v", w)
	}
	configured["github_mcp"] = &chain.Connection{Name: "github_mcp", Kind: chain.ConnMCP, Command: "srv"}
	if l, err = chain.LoadFile(filepath.Join(root, "cap.yaml"), chain.Options{Connections: configured}); err != nil {
		t.Fatal(err)
	}
	if w := PendingDefinitions(l.Chain, r); len(w) != 0 {
		t.Errorf("configured: %v", w)
	}
}
