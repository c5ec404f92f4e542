package cmd

import (
	"path/filepath"
	"testing"
)

// flowgateHistory is the testdata of mcp-flowgate's earlier workflow
// files (Apache-2.0; each file's repository, commit and path are in its
// README.md).
var flowgateHistory = filepath.Join("testdata", "flowgate-history")

// TestFlowgateHistoryFilesLoad validates every workflow file of
// mcp-flowgate's earlier commits kept in testdata/flowgate-history: each
// loads, but for those below, which mcp-flowgate could not load either
// (a capability, a connection or other files the text names but does not
// hold, or workflows written as a list its runtime never read): they are
// refused naming what is missing, and run --dry-run refuses them alike.
func TestFlowgateHistoryFilesLoad(t *testing.T) {
	refused := map[string]string{
		"9368194/docs/MCP-CONTROL-ARCHITECTURE.md.block3.yaml":                                    `executor: capability "github.create_pr" is not in this file's capabilities`,
		"9368194/docs/MCP-CONTROL-ARCHITECTURE.md.block5.yaml":                                    `no cli connection is named "lockd"`,
		"27c4bbe/site/src/content/docs/guides/multi-repo-loading.mdx.block5.yaml":                 "repos: loading other repositories' workflows with this file, as mcp-flowgate does, is not supported",
		"7a35cd1/docs/superpowers/specs/2026-05-26-capability-orchestrator-design.md.block9.yaml": "workflows must map each workflow's name to its definition, not list them",
	}
	files, loaded := loadEach(t, flowgateHistory, refused)
	if files != 60 {
		t.Errorf("%d workflow files, want the 60 README.md lists", files)
	}
	t.Logf("%d of %d files load", loaded, files)
}

// TestFlowgateHistoryRuns runs each earlier workflow whose executors are
// local (noop, cli programs every system has, workflows of the same
// fixture) with the inputs mcp-flowgate's own walks give them: each ends,
// or pauses at its first decision. The orchestrators are those
// flow_orchestrators_e2e.rs (404f7b7) and meta_orchestrators_e2e.rs
// (6af3b47) walk to their terminal state, over the capabilities beside
// them (passing some a value their contract does not declare, which
// mcp-flowgate passes on as given).
func TestFlowgateHistoryRuns(t *testing.T) {
	const ends, pauses = 0, exitPaused
	const cognitive = "404f7b7/crates/mcp-flowgate-core/tests/fixtures/cognitive-architectures/"
	const meta = "6af3b47/crates/mcp-flowgate-core/tests/fixtures/flowgate-meta/"
	cases := []struct {
		file   string
		inputs []string
		code   int
		says   string
	}{
		{"0063210/examples/swe-agent.yaml", nil, pauses, "paused at intake"},
		{"0063210/examples/authoring-workflow.yaml", nil, pauses, "paused at drafting"},
		{"9368194/docs/STRESS-TESTS.md.block3.yaml", nil, pauses, "paused at open"},
		{"9368194/site/src/content/docs/guides/workflows.mdx.block1.yaml", nil, pauses, "paused at drafting"},
		{"c4cd620/examples/pattern-scripts/gateway.yaml", nil, pauses, "paused at review"},
		{"c4cd620/examples/pattern-guidance-templates/gateway.yaml", nil, pauses, "paused at review"},
		{cognitive + "capabilities/cap.tests.baseline-snapshot.yaml", nil, ends, ""},
		{cognitive + "orchestrators/flow.add-feature.yaml", []string{"feature_brief=Add a --json flag", "base_ref=main"}, ends, ""},
		{cognitive + "orchestrators/flow.bugfix-from-error-log.yaml", []string{"error_log=panicked at 'index out of bounds'", "base_ref=main"}, ends, `"review_verdict": "approved"`},
		{cognitive + "orchestrators/flow.safe-refactor.yaml", []string{`scope_description={"paths": ["src/foo"]}`, "base_ref=main"}, ends, ""},
		{cognitive + "orchestrators/flow.triage-issue.yaml", []string{`issue={"title": "crash on start", "body": "stack trace"}`}, ends, ""},
		{meta + "orchestrators/flow.author-capability.yaml", []string{"goal=Author a cap.test.python-pytest capability", "namespace=draft", "base_ref=main"}, ends, ""},
		{meta + "orchestrators/flow.author-flow.yaml", []string{"goal=Author flow.deploy-helm-chart orchestrator", "namespace=draft", "base_ref=main"}, ends, ""},
		{meta + "orchestrators/flow.optimize-capability.yaml", []string{"target_definition_id=cognitive/cap.implement.tdd-loop", "base_ref=main"}, ends, ""},
		{meta + "orchestrators/flow.optimize-flow.yaml", []string{"target_definition_id=cognitive/flow.add-feature", "base_ref=main"}, ends, ""},
	}
	chains := t.TempDir()
	var runs []runCase
	for _, tc := range cases {
		args := []string{"--chains-dir", chains, "run", filepath.Join(flowgateHistory, tc.file), "-q"}
		for _, in := range tc.inputs {
			args = append(args, "--input", in)
		}
		runs = append(runs, runCase{filepath.Base(tc.file), args, tc.code, tc.says})
	}
	runEach(t, runs)
}
