// Package prompt asks the person at the terminal what a run needs to
// know: the choice at a workflow's human decision point, and whether a
// tool call outside a step's tools may run. One reader of the input
// serves every prompt of a process, so an answer typed ahead is never
// lost, and one question is asked at a time.
//
// It must not import cobra, viper or another view package: a live
// display that must not redraw over a question is handed in as a Holder.
package prompt
