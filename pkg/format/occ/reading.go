package occ

import (
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/yamlpos"
	yaml "go.yaml.in/yaml/v4"
)

// This file decides whether a DAG chain file is read as OCC's: a file OCC
// wrote means what OCC runs it as (with a warning where chainrun's own
// format would refuse), while a file in chainrun's own format keeps its
// stricter rules.

// chainrunOnlyKeys are top-level keys OCC's format has no such thing as:
// a file that writes one is chainrun's own.
var chainrunOnlyKeys = []string{"tools", "connections", "dotenv", "handlers", "budget", "keep_going"}

// occOnlyKinds are step types only OCC's format has.
var occOnlyKinds = []string{string(chain.KindRouter), string(chain.KindEvaluator), string(chain.KindGate), string(chain.KindLoop),
	string(chain.KindMerge), string(chain.KindSubchain), string(chain.KindDebate), string(chain.KindWebhook), string(chain.KindBrowser)}

// chainrunOnlyKinds are step types OCC's format has no such thing as
// (OCC's StepType, mcp-server/src/types.ts: agent, router, gate,
// evaluator, transform, loop, merge, browser, subchain, debate, webhook,
// image_gen): a file with a step of one is chainrun's own.
var chainrunOnlyKinds = []string{string(chain.KindCLI), string(chain.KindShell), string(chain.KindHTTP), string(chain.KindFile),
	string(chain.KindHuman), string(chain.KindChain), string(chain.KindNoop), string(chain.KindREST), string(chain.KindScript),
	string(chain.KindParallel), string(chain.KindWorkflow), string(chain.KindMCP), string(chain.KindPipeline),
	string(chain.KindStructuralAnalysis), string(chain.KindDryRun), string(chain.KindRegistry)}

// chainrunOnlyStepKeys are step fields OCC's ChainStep has no such thing
// as: a cli or script step's command and environment, an http step's
// request, a parallel or pipeline step's parts, an mcp or workflow
// step's call, and chainrun's for_each, idempotent, continue_on_error
// and condition_key. A file whose step writes one is chainrun's own.
// (OCC's pre_tools write command, path, query and method too: those are
// a pre_tool's, not a step's, and are not looked at.)
var chainrunOnlyStepKeys = []string{"command", "run", "args", "env", "treatNonZeroAsFailure", "workingDirectory",
	"subject", "connection", "query", "path", "queue", "branches", "join", "max_concurrency",
	"max_recursion_depth", "on_branch_failure", "on_step_failure", "total_timeout_ms", "steps", "tool",
	"arguments", "map", "on_tool_error", "use", "input", "definition", "definitionId", "dir",
	"for_each", "idempotent", "continue_on_error", "condition_key", "max_turns"}

// readsAsOCC reports whether a DAG chain's mapping is OCC's. A file with
// a top-level key, a step type or a step field that only chainrun has is
// chainrun's own, whatever its version: says (chainrun's own format has
// version: too). Otherwise it is OCC's when it is a pipeline (chains:),
// declares version:, or has a step of a type only OCC has. A file that
// mixes a step type only OCC has with something only chainrun has is
// chainrun's own, with a warning: OCC could not run it, and chainrun's
// own format runs OCC's step types under its stricter rules.
//
// d, when not nil, takes the warning about a mixed file.
func readsAsOCC(d *yamlpos.Diags, root *yaml.Node) bool {
	m, mine := marksOf(root)
	return m.reads(d, root, mine)
}

// reads is readsAsOCC's decision from the marks its steps were scanned
// for: the chain reader lets go of the steps' nodes as it decodes them,
// so the decoder scans them first and decides after.
func (m occMarks) reads(d *yamlpos.Diags, root *yaml.Node, mine bool) bool {
	if !mine {
		return false
	}
	if m.chainrun != "" {
		if m.occ != "" && d != nil {
			d.Warnf(m.occAt, "%s, but %s, which OCC's format has not: the file is read in chainrun's own format (its stricter rules apply)", m.occ, m.chainrun)
		}
		return false
	}
	return yamlpos.KeyNode(root, "chains") != nil || yamlpos.KeyNode(root, "version") != nil || m.occ != ""
}

// marksOf scans a DAG chain's steps; mine is false when a top-level key
// only chainrun has makes the file chainrun's own at once.
func marksOf(root *yaml.Node) (m occMarks, mine bool) {
	for _, k := range chainrunOnlyKeys {
		if yamlpos.KeyNode(root, k) != nil {
			return m, false
		}
	}
	m.scan(yamlpos.ValueOf(root, "steps"))
	return m, true
}

// occMarks are the first step of a type only OCC has, and the first step
// with something only chainrun has, each as messages name it.
type occMarks struct {
	occ, chainrun string
	occAt         chain.Pos
}

// scan looks at every step of a steps: list, and at the steps written
// inside them (a loop's step_template, a pipeline's or a parallel
// step's own steps).
func (m *occMarks) scan(steps *yaml.Node) {
	if steps == nil || yamlpos.Deref(steps).Kind != yaml.SequenceNode {
		return
	}
	for _, s := range yamlpos.Deref(steps).Content {
		m.step(s, "")
	}
}

// step looks at one step and at the steps written inside it; who is how
// messages name a step without an id of its own (a step_template).
func (m *occMarks) step(s *yaml.Node, who string) {
	s = yamlpos.Deref(s)
	if s.Kind != yaml.MappingNode {
		return
	}
	if id := yamlpos.ValueOf(s, "id"); id != nil && yamlpos.Deref(id).Kind == yaml.ScalarNode {
		who = "step " + `"` + yamlpos.Deref(id).Value + `"`
	} else if who == "" {
		who = "a step"
	}
	if t := yamlpos.ValueOf(s, "type"); t != nil {
		switch v := yamlpos.Deref(t).Value; {
		case slices.Contains(occOnlyKinds, v) && m.occ == "":
			m.occ, m.occAt = who+" has OCC's type "+v, yamlpos.Of(t)
		case slices.Contains(chainrunOnlyKinds, v) && m.chainrun == "":
			m.chainrun = who + " has type " + v
		}
	}
	for i := 0; i+1 < len(s.Content) && m.chainrun == ""; i += 2 {
		if k := s.Content[i].Value; slices.Contains(chainrunOnlyStepKeys, k) {
			m.chainrun = who + " writes " + k + ":"
		}
	}
	if t := yamlpos.ValueOf(s, "step_template"); t != nil {
		m.step(t, who+" step_template")
	}
	m.scan(yamlpos.ValueOf(s, "steps"))
	m.scan(yamlpos.ValueOf(s, "branches"))
}
