// Package fileschema reads the JSON Schemas a chain file writes: a
// workflow's inputSchema, a transition's arguments, a json_schema
// guardrail, a completion tool's schema. It compiles them (ResolveSchema)
// and names a type that is none of JSON Schema's, follows their local
// $refs, fills the defaults they give as mcp-flowgate does, and says
// which arguments a transition cannot be taken without and the
// placeholder a hint shows for each (NeededArg), which the run refuses
// when it comes back unfilled.
//
// Validation (pkg/chain, pkg/chain/wfcheck) and the run (pkg/run/given,
// pkg/run/flow) share it, so a schema means the same when a file is
// checked and when a value is given. It is a leaf below pkg/chain. It may
// import, of this module: interp, spell.
package fileschema
