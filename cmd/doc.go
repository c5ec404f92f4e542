// Package cmd is chainrun's command line: cobra commands, configuration
// through per-process configuration layers, the standard streams, and the one place
// where errors become exit codes. It is the only package that touches
// flags and config; everything below it receives plain values. Every view
// of a run (text, progress, live, GitHub Actions, graphs, gantt, prompts)
// lives in pkg/render; cmd only chooses and wires them.
package cmd
