// Package chaintest runs a chain's tests: the cases of a *.test.yaml
// file, each a run of the chain with inputs, stand-ins for its commands,
// requests and models, scripted decisions, and expectations about how the
// run went — its status, output, the steps it took and what they cost.
//
// A case is hermetic: model answers come from a cassette (package
// cassette) or the case's script, never the network, and so do the
// gradings of its model-graded matchers (rubric, score, similar); http, mcp, webhook
// and browser steps must be mocked unless the run is live; commands find
// no proxy to the outside and a state and cache directory of their own;
// retry waits pass in virtual time. A chain test therefore needs no key
// and gives the same verdict on every machine, which is what makes it a
// CI check. Only a live repeat (Runner.LiveModels) asks the providers.
//
// A case may run several times (repeats, with a pass rate) and on
// several models (a matrix); every check it makes is kept as an
// Assertion, and the report is written as text, JSON, JUnit or one
// self-contained HTML page, and compared with a saved Baseline.
//
// It may import, of this module: cache, cassette, chain, dotenv, event, fsutil,
// llm, redact, render, retry, run, run/record, run/response, yamlpos.
package chaintest
