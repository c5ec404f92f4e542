// Package graph draws a chain, or a saved run of it, as a picture: one
// model (nodes, groups, edges, and the styles of a run's outcomes) built
// from a DAG chain (steps grouped by wave) or from a state workflow, and
// three printers of that model: text for a terminal, Mermaid and
// Graphviz DOT.
//
// It owns the model and both printers' syntax. It must not import cobra,
// viper or another view package; it reads chains (pkg/chain) and saved
// runs (pkg/store), never the chains directory or the state directory.
package graph
