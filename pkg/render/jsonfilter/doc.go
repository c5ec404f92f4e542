// Package jsonfilter turns a command's JSON output into what a script
// asked for with --jq or --template, so that a pipeline needs no jq on
// the machine and no second parse of chainrun's output: a jq expression
// (gojq: the jq language, in-process) whose string results print raw, or
// a Go text/template with a few functions for tables and lists.
//
// Both are compiled before the command does anything (New), so a broken
// expression is a usage error and nothing runs; Apply then filters the
// JSON the command printed. It owns the filter languages and how their
// results are printed, not the JSON itself (each command's own) nor exit
// codes. It must not import cobra, viper, or another view package (only
// pkg/render's shared pieces).
package jsonfilter
