// Package guard checks a step's output against its guardrails (reference
// 004: min_length, max_length, must_contain, must_not_contain,
// regex_match, json_valid, and the legacy output_* fields). The same rules
// apply to deterministic and LLM steps (reference 002). A violation is
// never a warning: the caller retries the step or fails it.
package guard
