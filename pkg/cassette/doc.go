// Package cassette records model answers at chainrun's provider seam and
// plays them back, so that a chain test runs its agent steps without a
// network, a key or a model: the same request gets the same answer, every
// time, on every machine.
//
// A recording is keyed on everything that shapes an answer — provider,
// model, system prompt, messages, tools, tool choice, temperature and
// answer cap — and kept per asker (a step id) in the order asked, so the
// turns of an agent loop replay in sequence. An embeddings request (a
// similarity check's vector) is recorded and played back the same way. The file is readable YAML
// for code review and holds no headers, URLs or keys: what is sent over
// the wire is the provider's business, not the recording's. A value the
// caller names secret (an API key, a secret input), or text shaped like a
// credential (a private key, a cloud or forge token), is refused at write
// time.
//
// A request with no recording is a miss. In ModeNone (CI) a miss fails
// the step with an error that names the step and shows what changed
// against the nearest recording; ModeMissing asks the live model and
// records the answer; ModeAll asks it for every request and replaces the
// recordings of the cases that ran.
//
// It may import, of this module: fsutil, llm, redact.
package cassette
