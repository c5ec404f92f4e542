// Package ask holds the rules of what a model step asks with, decided by
// the step alone: the retry policy of its requests, the key and lifetime
// of its cached answers, the guardrails its answer is checked against and
// what a re-ask after broken ones tells the model, the tools it offers,
// the params a model alias adds to its requests (read by a step's rules),
// how a tool call is named in events (its subject and the digest of
// its arguments) and put to the person who may allow it (ToolAsker), and
// which json_schema guardrails go to a provider non-strict
// (FormatWarnings, for validate).
//
// It is a leaf under pkg/run, whose execution asks the models (with the
// run's budget, secrets and events) and calls it; the kinds' run units
// read the same rules here. It must not import pkg/run or anything that
// does. It may import, of this module: cache, chain, chain/reqparams,
// guard, llm, spell, tools.
package ask
