// Package render holds the small pieces every view of a run shares, so
// each is written once: JSON printed with an indent of two, a value as
// one line of text, durations, the first line of a long message, and the
// command that takes a link of a run.
//
// The views themselves live in the packages below it: text (results,
// pauses, plans, listings), progress (plain lines), live (the terminal
// board), github (GitHub Actions), graph (Mermaid and DOT), gantt and
// prompt (questions to the person at the terminal). No render package
// imports cobra or viper: they take writers, plain option structs, the
// event stream and run results, and never read configuration. This
// package imports no view package.
package render
