// Package mask hides a run's secret input values in whatever it shows:
// events, errors, warnings, saved values and results. It owns the forms a
// secret can take in a text (as given, trimmed, line by line,
// percent-encoded, JSON-escaped, cut short at a "…") and the rule that a
// text holding one is never stored; and the cutting of a step's output
// into --verbose's batches of lines (LineEmitter), masked so that no
// secret is split between two pieces and shown in neither masked.
//
// It is a leaf under pkg/run, which calls it, so that masking is read and
// tested apart from the engine. It must not import pkg/run or anything
// that does. It may import, of this module: chain, redact.
package mask
