// Package authoring holds the step kinds that write workflows:
// mcp-flowgate's dry_run and registry (a drafted definition checked, then
// published atomically: authoring.go) and structural_analysis
// (structural.go, its rules in structure.go), each with its run unit
// (KIND_run.go). Each registers with chain.Register and run.Register in its
// init and sees the run only through run.Attempt. A model unit imports only
// chain, interp and yamlpos. It may import, of this module: chain, interp,
// run, run/record, yamlpos.
package authoring
