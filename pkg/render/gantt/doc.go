// Package gantt draws a saved run's timeline as a Mermaid gantt chart,
// one bar per step from its start to its end, read back from the run's
// event log, so parallelism and the critical path show.
//
// It must not import cobra or viper, nor another view package but graph
// (for Mermaid's node ids).
package gantt
