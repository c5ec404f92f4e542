package chain

import (
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// WorkflowDialect is what a front-end decides about how a `workflows:`
// file reads when it is read as a peer's (DecodeWorkflowFile): the
// knobs and hooks of a behaviour that is the peer's and not chainrun's.
// The zero dialect reads the file as chainrun's own, strictly. A
// front-end that reads a peer's keys sets the Diags' Peer and Ignore too,
// so that an unknown key inside a workflow is warned of, not refused.
type WorkflowDialect struct {
	// LenientInputs: a workflow without inputSchema takes any input, a
	// reference to an input it does not declare is accepted with a
	// warning, and an input not given resolves as the peer resolves it
	// in each place (Chain.LenientInputs).
	LenientInputs bool
	// UnregisteredKinds: an executor of a kind no kind has, and not close
	// to one chainrun has, loads with a warning, and a run that could
	// reach it is refused (unregisteredKind), instead of the file being
	// refused.
	UnregisteredKinds bool
	// FileKey reads a top-level key of the file that chainrun's own
	// reader does not handle, reporting whether it took the key; one it
	// does not take is read as chainrun reads it.
	FileKey func(d *yamlpos.Diags, k, v *yaml.Node) bool
	// CheckWorkflow checks a workflow's definition n before it is read;
	// prefix names the workflow in messages.
	CheckWorkflow func(d *yamlpos.Diags, n *yaml.Node, prefix string)
	// WorkflowKey and StateKey read a key of a workflow (c) or a state
	// (s) that chainrun's own reader does not handle, reporting whether
	// they took it; prefix names the owner in messages.
	WorkflowKey func(d *yamlpos.Diags, c *Chain, k, v *yaml.Node, prefix string) bool
	StateKey    func(d *yamlpos.Diags, s *State, k, v *yaml.Node, prefix string) bool
}
