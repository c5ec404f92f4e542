// Package gantt draws a saved run's timeline — one bar per step from its
// start to its end, read back from the run's event log, so parallelism
// and the critical path show — as text for a terminal or as a Mermaid
// gantt chart, both with times from the run's start.
//
// It must not import cobra or viper, nor another view package but graph
// (for Mermaid's node ids).
package gantt
