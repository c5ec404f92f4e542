// Package cmd is chainrun's command line: cobra commands, configuration
// through a per-process viper, the standard streams, and the one place
// where errors become exit codes. It is the only package that touches
// flags and config; everything below it receives plain values.
package cmd
