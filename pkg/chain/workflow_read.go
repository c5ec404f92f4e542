package chain

import (
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// The seam of the reader of workflows: files. pkg/chain/wfyaml reads
// them and registers with this package, as pkg/chain/wfcheck registers
// their rules: this package keeps the model, the keys of a scripts: and a
// connections: entry and of a task's transition:, and the readers it
// shares with a DAG chain's (steps, tools, scripts, reliability,
// evidence).

// workflowReader reads a workflows: file: pkg/chain/wfyaml registers it.
var workflowReader func(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain

// RegisterWorkflowReader sets the reader of workflows: files
// DecodeWorkflowFile calls. Only pkg/chain/wfyaml calls it; a second
// registration panics.
func RegisterWorkflowReader(read func(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain) {
	if workflowReader != nil {
		panic("chain: a reader of workflows: files is registered twice")
	}
	workflowReader = read
}

// DecodeWorkflowFile reads a `workflows:` file, chainrun's state
// workflows (references 000 and 003), as dialect reads it: one Chain per
// workflow, in the order written. The zero dialect is chainrun's own
// reading; a front-end passes its peer's.
func DecodeWorkflowFile(d *yamlpos.Diags, root *yaml.Node, dialect WorkflowDialect) []*Chain {
	if workflowReader == nil {
		d.Errorf(yamlpos.Of(root), "this program links no reader of workflows: files (pkg/chain/wfyaml)")
		return nil
	}
	return workflowReader(d, root, dialect)
}

// BranchTransition holds the keys of a state's transition: {branches}.
// It is exported for the front-ends whose states move by branches, which
// check a transition's keys against it and describe it in their schema.
type BranchTransition struct {
	Branches  []*Branch `yaml:"branches"`
	OnFailure string    `yaml:"on_failure"`
}

// ReadAs records what the dialect a workflow was read in says of its
// meaning at run time and in validation (LenientInputs,
// UnregisteredKinds).
func (c *Chain) ReadAs(dialect WorkflowDialect) {
	c.lenientInputs, c.unregisteredKinds = dialect.LenientInputs, dialect.UnregisteredKinds
}

// SetTimeoutUnread records that the state's timeout could not be read
// (reported): what it needs is then not judged (TimeoutUnread).
func (s *State) SetTimeoutUnread() { s.timeoutUnread = true }

// SetBranchesUnread records that the state's transition.branches could
// not be read (reported): whether they are empty is then not judged
// (BranchesUnread).
func (s *State) SetBranchesUnread() { s.branchesUnread = true }

// KnownKind reports whether name is a kind, or an alias of one.
func KnownKind(name string) bool {
	_, ok := kindOf(name)
	return ok
}

// ReportUnknownKind reports a step kind nothing registers at at, naming
// the step (who) and its key (word: type or kind), with the closest of
// kinds.
func ReportUnknownKind(d *yamlpos.Diags, at Pos, who, word, kind string, kinds []string) {
	reportUnknownKind(d, at, who, word, kind, kinds)
}

// DecodeReliability reads an executor's reliability: {retry, fallback}
// (mcp-flowgate's policy) into e, candidate reading each fallback.
func DecodeReliability(d *yamlpos.Diags, candidate func(n *yaml.Node, i int, prefix string) *Step, e *Step, v *yaml.Node, prefix string) {
	decodeReliability(d, candidate, e, v, prefix)
}

// TakeEvidence takes an executor's evidence: key out of its mapping n,
// returning the mapping without it and the evidence it declares.
func TakeEvidence(d *yamlpos.Diags, n *yaml.Node, prefix string) (*yaml.Node, *EvidenceDecl) {
	return takeEvidence(d, n, prefix)
}

// takeEvidence reads a transition executor's evidence: {kind, id,
// summary} (mcp-flowgate) and returns the executor without it, for the
// step decoder, which knows no such field.
func takeEvidence(d *yamlpos.Diags, n *yaml.Node, prefix string) (*yaml.Node, *EvidenceDecl) {
	ev := yamlpos.ValueOf(n, "evidence")
	if n.Kind != yaml.MappingNode || ev == nil {
		return n, nil
	}
	decl := &EvidenceDecl{}
	if ev = yamlpos.Deref(ev); ev.Kind != yaml.MappingNode {
		d.LooseErrorf(yamlpos.Of(ev), "%sevidence is a mapping: {kind: tests_passed}", prefix)
	} else if yamlpos.DecodeChecked(d, ev, prefix+"evidence: ", yamlpos.KeysOf[EvidenceDecl](), decl) && strings.TrimSpace(decl.Kind) == "" {
		d.LooseErrorf(yamlpos.Of(ev), "%sevidence needs the kind it records: {kind: tests_passed}", prefix)
	}
	m, _ := takeKey(n, "evidence")
	return m, decl
}

// takeKey is mapping n without key, and key's value (nil when n has
// none): a key read apart from the step it is written in.
func takeKey(n *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	v := yamlpos.ValueOf(n, key)
	if n.Kind != yaml.MappingNode || v == nil {
		return n, nil
	}
	m := *n
	m.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			m.Content = append(m.Content, n.Content[i], n.Content[i+1])
		}
	}
	return &m, v
}

// InputOrder is the order the workflow's inputs are listed in, as its
// file wrote them (SetInputOrder).
func (w *Workflow) InputOrder() []string { return w.inputOrder }

// UnregisteredKinds reports whether an executor of a kind no kind has
// loads with a warning (the dialect's UnregisteredKinds) instead of
// refusing the file.
func (c *Chain) UnregisteredKinds() bool { return c.unregisteredKinds }
