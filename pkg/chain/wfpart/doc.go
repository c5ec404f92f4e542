// Package wfpart holds the parts of a state workflow's model that hold
// no step: a task state's branches with their operators, ranges, edges
// and compose, a transition's output mappings and their operands, the
// blackboard's slots and their constraints, a capability's verb,
// lifecycle and snippet outputs, the guidance fragments of a skills:
// library with the references to them, and a file's scripts: and
// connections: entries (Script, Connection). pkg/chain names them in its own
// vocabulary (chain.Branch, chain.OutputMapping: wf_names.go), as it
// names the guards of pkg/chain/guardexpr; the states, transitions and
// the workflow itself hold steps, so they stay in pkg/chain.
//
// It reads no file and runs nothing: the reader (pkg/chain/wfyaml) fills
// these parts, the rules (pkg/chain/wfcheck) compile what they hold
// (Branch.SetRange, Compose.SetPath) and the driver (pkg/run/flow) reads
// them. It is a leaf below pkg/chain. It may import, of this module:
// chain/guardexpr, interp, yamlpos.
package wfpart
