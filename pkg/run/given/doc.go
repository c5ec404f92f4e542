// Package given checks what a run is given against what its chain
// declares: --input text read as each input's declared type (or as OCC's
// executor takes it, for a file read as OCC's), unknown and missing names,
// defaults, enums and a workflow's inputSchema, every problem at once. It
// also reads a decision's argument text as its declared type, and words a
// schema's refusal the one way every message uses, and holds what a
// workflow step passes the workflow it calls against that workflow's
// declaration (Unknown, Undeclared, Mismatch).
//
// It is a leaf under pkg/run, which calls it and turns its problems into
// an InputError with the secrets masked: the rules of inputs read apart
// from the engine. It must not import pkg/run or anything that does. It
// may import, of this module: chain, chain/fileschema, guard.
package given
