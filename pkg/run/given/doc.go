// Package given checks what a run is given against what its chain
// declares: --input text read as each input's declared type (or as OCC's
// executor takes it, for a file read as OCC's), unknown and missing names,
// defaults, enums and a workflow's inputSchema, every problem at once. It
// also reads a decision's argument text as its declared type, and words a
// schema's refusal the one way every message uses, and holds what a
// workflow step passes the workflow it calls against that workflow's
// declaration (Unknown, Undeclared, Mismatch). Its problems become one
// InputError, the secrets masked (ResolveInputs, ResolveTyped), and
// --grant names are checked against the tools a run can call (Grants).
//
// It is a leaf under pkg/run, which calls it: the rules of inputs read
// apart from the engine. It must not import pkg/run or anything that
// does. It may import, of this module: chain, chain/fileschema, guard,
// interp, run/mask.
package given
