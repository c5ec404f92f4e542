// Package occ is the front-end of OCC's chain files (lacausecrypto/OCC):
// a steps: file OCC wrote, or a chains: pipeline, read into chainrun's
// model as OCC runs it. It owns what is OCC's: which file reads as OCC's
// (and the warning for a file that mixes OCC's step types with
// chainrun's own), OCC's top-level keys (chains:, max_context_chars),
// its names and messages, and the chain.Reading it sets, whose knobs and
// hooks carry OCC's meaning into the core without the core naming OCC.
// What it reads is validated by the same rules as chainrun's own chains.
//
// It may import, of this module: chain, interp, yamlpos. Never run, a
// kind or another front-end: pkg/load holds the list of front-ends.
package occ
