// Package authoring holds the run units of the step kinds that write
// workflows: mcp-flowgate's dry_run and registry (a drafted definition
// checked, then published atomically) and structural_analysis. Each
// registers with run.Register in its init and sees the run only through
// run.Attempt. Their model units are in pkg/chain. It may import, of this module: chain, interp, run, yamlpos.
package authoring
