// Package progress prints a run's events as plain lines, one per event,
// with no escape codes: what a pipe, a CI log, --quiet and --verbose
// show, and the wording the live display reuses for its lines.
//
// It owns the text of each event's line. It must not import cobra,
// viper, or another view package (only pkg/render's shared pieces).
package progress
