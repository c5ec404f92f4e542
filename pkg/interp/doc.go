// Package interp owns what a chain's text means when a step runs:
// templates and their {references} (template.go), rendered as text, as a
// run: script that never runs a value as code (shell*.go: where each
// reference stands in the script, what a second parser would run) and as
// a URL whose values cannot change its shape (url.go); expr-lang
// expressions with reference 004's {var} form, their memory budget and
// depth bound (expression*.go); values whose $. texts are JSONPaths read
// when a step runs (mapped.go, path.go), and OCC's dotted json_path,
// read through the same RFC 9535 library (dotted_path.go); and a
// decoded JSON value as the text a reference interpolates, with the
// walk of a reference's fields and indexes through it (json_text.go); and
// a run's variable itself (Value: its text, and its structure when it has
// one), as templates, expressions and paths read it (value.go).
//
// It knows nothing of chains, steps or positions in a file: it answers
// with errors, and pkg/chain, which compiles a chain's templates and
// expressions once at load, puts them at a file, line and field. A
// front-end's own reading of a condition comes in as a function
// (FallbackExpression), so no peer's rules live here.
//
// It is a leaf but for the closest-name rule of its messages. It may
// import, of this module: spell.
package interp
