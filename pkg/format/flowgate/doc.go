// Package flowgate is the front-end of mcp-flowgate's files. A
// `workflows:` file (a state workflow: initialState, states, goal,
// guidance, transitions, task, branches) is chainrun's own format,
// references 000 and 003, and pkg/chain reads it
// (chain.DecodeWorkflowFile); Format, which pkg/load lists, claims such a
// file and has chain read it in mcp-flowgate's dialect
// (chain.WorkflowDialect), as mcp-flowgate's gateway would serve it.
//
// It owns everything that is mcp-flowgate's and not chainrun's: the keys
// mcp-flowgate ignores or reads that chainrun does not apply, warned of
// instead of refused (peer_keys.go); its runtime flags, refused inside a
// workflow; the gateway's configuration (gateway.go: its keys, include:,
// repos:, overrides:, audit:, and a gateway configuration without
// workflows); its flowgate: settings block (settings.go); the earlier
// keys read as notes (aliases, examples, the ask_human self-loop,
// delegate, and timeoutMs on every step, a chain.RegisterStepAlias of
// aliases.go); the inputs a workflow takes as mcp-flowgate takes them; and
// the messages that speak mcp-flowgate's words ("as mcp-flowgate ignores
// it").
//
// A front-end reads files into the model and nothing else: it runs
// nothing, so it imports neither pkg/run nor any kind, and only pkg/load
// imports it. It may import, of this module: chain, chain/guardexpr,
// interp, spell, yamlpos.
package flowgate
