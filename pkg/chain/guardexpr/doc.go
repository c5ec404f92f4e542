// Package guardexpr is the guards of a workflow's transitions (reference
// 000's, mcp-flowgate's) as a model and their evaluation: expr guards
// compiled once to expr-lang over the run's $.paths, permission and role
// guards against the configured principal, evidence and acknowledgment
// guards against what the run recorded, and their all_of/any_of/not
// combinations; output mappings' expressions share the language.
//
// It exists apart from pkg/chain so that the engine's workflow driver
// and the peers' front-ends can check and build guards without the whole
// chain model: it knows no step, transition or file. Reading guards from
// YAML (their messages at file:line) stays in pkg/chain. It may import,
// of this module: interp, yamlpos.
package guardexpr
