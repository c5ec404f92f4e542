package flowgate

import (
	"strings"
	"testing"
)

// TestFlowgateFileLevelKeys: the top-level keys mcp-flowgate's loader
// reads beside workflows (config.rs load_yaml_inner, take_repos_and_overrides;
// repo.rs HARMLESS_TOP_LEVEL_KEYS; 08c09bd): description and metadata are
// for readers and load; an empty include: or repos: merges nothing and
// loads; a non-empty one is refused naming the key and what to do
// instead (chainrun reads one file); overrides: is warned of and ignored.
func TestFlowgateFileLevelKeys(t *testing.T) {
	const wf = "workflows:\n  w:\n    initialState: a\n    states: {a: {terminal: true}}\n"
	for _, tc := range []struct{ name, head, refused, warned string }{
		{name: "readers' keys", head: "description: the tdd gateway\nmetadata: {owner: team, tags: [a]}\n"},
		{name: "empty include", head: "include: []\n"},
		{name: "empty repos", head: "repos: []\noverrides: []\n", warned: "overrides: ignored"},
		{name: "include", head: "include: [base.yaml]\n", refused: "v.yaml:1:1: include: merging other files into this one, as mcp-flowgate does, is not supported"},
		{name: "repos", head: "repos:\n  - path: ~/repos/cognitive-architectures\n", refused: "v.yaml:1:1: repos: loading other repositories' workflows with this file, as mcp-flowgate does, is not supported: point --chains-dir at their workflows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("v.yaml", []byte(tc.head+wf), Options{})
			switch {
			case tc.refused != "":
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("want %q, got %v", tc.refused, err)
				}
			case err != nil:
				t.Fatalf("refused: %v", err)
			case !strings.Contains(warningsOf(l), tc.warned):
				t.Errorf("no warning %q in %s", tc.warned, warningsOf(l))
			}
		})
	}
}

// TestFlowgateShapesRefusedNamingWhy: shapes mcp-flowgate's design notes
// show but its runtime never loaded are refused naming why, and only
// once: workflows as a list of {definitionId, …} (docs/superpowers/specs,
// 7a35cd1) or empty (the skeleton of docs/CONFIG.md, 9368194), and a cli executor whose connection the file does not
// declare (docs/MCP-CONTROL-ARCHITECTURE.md, 9368194).
func TestFlowgateShapesRefusedNamingWhy(t *testing.T) {
	for _, tc := range []struct{ name, src, want, not string }{
		{"workflows as a list", "workflows:\n  - definitionId: flow.add-feature\n    initialState: a\n    states: {a: {terminal: true}}\n",
			"v.yaml:2:3: workflows must map each workflow's name to its definition, not list them: write each item's definitionId as its key", ""},
		{"no workflows", "version: \"1.0.0\"\ninclude: []\ncapabilities: {}\nworkflows: {}\n", "v.yaml:4:12: workflows is empty: the file holds no workflow to run", ""},
		{"undeclared cli connection", "workflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, executor: {kind: cli, connection: lockd, args: [acquire]}}\n      b: {terminal: true}\n",
			`transition "go" executor: no cli connection is named "lockd": the file's connections: declares none`, "needs command"},
		{"misspelt cli connection", "connections:\n  lockd: {kind: cli, command: lockctl}\nworkflows:\n  w:\n    initialState: a\n    states:\n      a:\n        transitions:\n          go: {target: b, executor: {kind: cli, connection: lockdd}}\n      b: {terminal: true}\n",
			`no cli connection is named "lockdd" (did you mean lockd?)`, "needs command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("v.yaml", []byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
			if tc.not != "" && strings.Contains(err.Error(), tc.not) {
				t.Errorf("also says %q: %v", tc.not, err)
			}
		})
	}
}
