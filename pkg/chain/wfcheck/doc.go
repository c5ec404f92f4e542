// Package wfcheck holds the rules of a state workflow (references 000
// and 003, and the files every front-end reads into one): a state's
// shape (terminal, transitions, a task and its branches, timeouts), each
// transition's target, actor, condition, arguments, prefill and title,
// the goals' and guidances' references and {{ $.path }} placeholders, a
// branch's operator, goto, edge and compose, onEnter and reliability
// fallbacks, the blackboard's slots and their constraints, capabilities'
// verbs, lifecycles and tiers, guidance fragments and acknowledgments,
// and which states a run can reach (the steps of those it cannot are
// recorded: chain.Workflow.SetUnreachable) and whether it can end.
//
// It registers with pkg/chain (chain.RegisterWorkflowCheck) in its init,
// as pkg/run/flow registers the driver of the runs: pkg/chain keeps the
// model and the step validator, which every workflow's executors and
// tasks are compiled with (through chain.WorkflowChecker), and this package the
// rules that are a workflow's alone, so that neither room holds both.
// pkg/load links it, so every program that loads a file checks its
// workflows; a package whose tests read workflows without pkg/load links
// it through one external test file (workflows_link_test.go).
//
// It reads no file and runs nothing. It may import, of this module:
// chain, chain/fileschema, chain/guardexpr, chain/wfpart, interp, spell,
// yamlpos.
package wfcheck
