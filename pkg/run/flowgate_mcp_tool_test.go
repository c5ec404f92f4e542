package run

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestMCPExecutorWithoutToolIsPending: mcp-flowgate loads a workflow
// whose mcp executor names no tool and fails it only when it runs
// (crates/mcp-flowgate-executors/src/mcp.rs at 443aa7a: "mcp executor
// needs `tool`"); its validation_rules.rs fixtures (v1_accepts_*,
// v2_accepts_*, v6_accepts_*, v10_*, v11_accepts_*) are such files and
// pass its check. So a workflow file with one loads: validate warns of it
// at the executor's line, a run that could reach it is refused before
// anything runs (exit 2, nothing saved), and one in a state no run
// reaches is only warned of. A DAG chain's mcp step still needs tool.
func TestMCPExecutorWithoutToolIsPending(t *testing.T) {
	const conns = "connections:\n  gh: {kind: mcp, command: srv}\n"
	for _, tc := range []struct {
		name, src, at string
		runs          bool // a run is refused
	}{
		{"reached", conns + "workflows:\n  cap.plan.draft:\n    verb: plan\n    initialState: ready\n    snippet: {inputs: {}, outputs: {}}\n    states:\n      ready:\n        transitions:\n          t: {target: done, actor: deterministic, executor: {kind: mcp, connection: gh}}\n      done: {terminal: true}\n",
			"c.yaml:11:61", true},
		{"after a decision", conns + "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        goal: g\n        transitions:\n          go: {target: b}\n      b:\n        transitions:\n          t: {target: done, actor: deterministic, executor: {kind: mcp, connection: gh, arguments: {x: 1}}}\n      done: {terminal: true}\n",
			"c.yaml:13:61", true},
		{"unreachable", conns + "workflows:\n  w:\n    initialState: a\n    states:\n      a: {terminal: true}\n      z:\n        transitions:\n          t: {target: a, actor: deterministic, executor: {kind: mcp, connection: gh}}\n",
			"c.yaml:10:58", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := chain.Parse("c.yaml", []byte(tc.src), chain.Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			want := `executor: tool is not set: the mcp executor calls no tool (mcp-flowgate loads it and fails it when it runs: "mcp executor needs tool")`
			warned := PendingDefinitions(l.Chain, Resolvers{})
			if len(warned) != 1 || !strings.HasPrefix(warned[0].String(), tc.at+": warning: transition \"t\" "+want) {
				t.Fatalf("PendingDefinitions: %v", warned)
			}
			dir := t.TempDir()
			res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: l.Chain})
			var pe *response.PreflightError
			switch {
			case tc.runs && (res != nil || !errors.As(err, &pe) || pe.Kind != response.Pending || !strings.Contains(err.Error(), want)):
				t.Errorf("run: %v", err)
			case !tc.runs && (err != nil || res.Status != record.Succeeded):
				t.Errorf("run: %v %+v", err, res)
			}
			if entries, _ := os.ReadDir(dir); tc.runs && len(entries) > 0 {
				t.Errorf("a refused run left %v", entries)
			}
		})
	}
	if _, err := chain.Parse("c.yaml", []byte(conns+"name: c\nsteps:\n  - {id: a, type: mcp, connection: gh}\n"), chain.Options{}); err == nil || !strings.Contains(err.Error(), `step "a": tool is required for an mcp step`) {
		t.Errorf("a DAG chain's mcp step without tool: %v", err)
	}
}
