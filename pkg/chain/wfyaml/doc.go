// Package wfyaml reads a `workflows:` file (references 000 and 003, and
// a peer's file a front-end reads as one) into the model: the file's
// keys, its skills:, scripts:, connections:, dotenv: and capability
// registry (a {capability: NAME} executor resolved before anything is
// read), each workflow's keys, its states, transitions, tasks and
// branches, guards and their aliases, output mappings, onEnter, slots,
// snippets, short inputs, reliability fallbacks and timeouts; a key only
// a front-end's dialect reads goes to that front-end
// (chain.WorkflowDialect).
//
// It registers with pkg/chain (chain.RegisterWorkflowReader) in its init,
// so that chain.DecodeWorkflowFile, which a front-end calls, and
// chainrun's own reading of such a file both read through it, as
// pkg/chain/wfcheck registers the workflow's rules: pkg/chain keeps the
// model and the readers a DAG chain shares (chain.DecodeStep, tools,
// scripts, reliability, evidence). The reader of connections: (a DAG
// chain's too, and the config's: ParseConnections) is this package's,
// registered the same way (chain.RegisterConnectionsReader); a task
// state's branches (DecodeBranches) are read here for every front-end
// whose states move by them. pkg/load links it; a package whose tests
// read workflows without pkg/load links it through one external test
// file (workflows_link_test.go).
//
// The keys of the file, of a workflow and of its agent: are declared here
// (keys.go), which the JSON Schema lists (pkg/chain/schema).
//
// It checks none of a workflow's rules and runs nothing. It may import,
// of this module: chain, chain/envfiles, chain/guardexpr, chain/wfpart,
// interp, spell, yamlpos.
package wfyaml
