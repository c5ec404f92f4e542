// Package envfiles holds a chain's dotenv: key as the file writes it:
// the files (a path, or {path, required: false}) whose KEY=VALUE lines
// the chain's commands get. It only names them, so that pkg/chain, the
// workflows: reader and the JSON Schema share one reading; pkg/dotenv
// reads the files when a run starts. It holds no step: a leaf below
// pkg/chain. It may import, of this module: yamlpos.
package envfiles
