package chain

// noopKind does nothing and succeeds: mcp-flowgate's `kind: noop`
// executor, a transition that only moves the run (and maps its output:,
// if it has one), and a placeholder step in a DAG chain. Its value is
// empty; it has no fields of its own.
var noopKind = kindUnit{kind: KindNoop}
