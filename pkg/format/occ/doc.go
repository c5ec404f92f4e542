// Package occ is the front-end of OCC's chain files (lacausecrypto/OCC):
// a steps: file OCC wrote, or a chains: pipeline, read into chainrun's
// model as OCC runs it. It owns what is OCC's about a file: which file
// reads as OCC's (and the warning for a file that mixes OCC's step types
// with chainrun's own), OCC's top-level keys (chains:, max_context_chars)
// and their messages, OCC's history as its tests pin it (each names the
// OCC commit, file and test it ports), and the chain.Reading it sets: the
// knobs that say what an OCC file means where chainrun's own format is
// stricter, and OCC's own judgements as hooks (a condition's truth over
// the run's variables, a reference that names nothing and a pipeline's
// {input} and {id.result}, an input's value, the variables its env_var
// will not read). The model
// validates what it reads by the same rules as chainrun's own chains, its
// checks reading the Reading's knobs rather than a peer's name; OCC's
// spellings of a debate's and a webhook's keys
// stay data of those kinds' units, since any step may write them.
//
// It may import, of this module: chain, interp, yamlpos. Never run, a
// kind or another front-end: pkg/load holds the list of front-ends.
package occ
