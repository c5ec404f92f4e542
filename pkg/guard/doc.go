// Package guard checks an output against compiled rules (reference 004:
// min_length, max_length, must_contain, must_not_contain, regex_match,
// json_valid, json_schema, and the legacy output_* fields). The same
// rules apply to deterministic and LLM steps (reference 002). A violation
// is never a warning: the caller retries the step or fails it.
//
// It is a leaf: it knows nothing of chains or steps. The engine builds a
// step's []Rule and checks the text the step stores. It imports nothing
// of this module.
package guard
