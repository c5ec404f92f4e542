// Package load reads a chain file in any format chainrun runs: its own
// (pkg/chain) and each peer's, through that peer's front-end. Every
// command, the store and the durable engines load through it, so a peer's
// file runs wherever a chainrun file runs. It may import, of this module:
// chain, format/occ, yamlpos.
package load

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/format/occ"
)

// formats are the front-ends, in the order their claims are tried.
var formats = []chain.Format{
	occ.Format,
}

// Parse decodes and validates chain text of any format; file names it in
// messages.
func Parse(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	return chain.ParseAs(file, data, Options(opts), formats)
}

// LoadFile reads and validates one chain file of any format.
func LoadFile(path string, opts chain.Options) (*chain.Loaded, error) {
	return chain.LoadFileAs(path, Options(opts), formats)
}

// Options returns opts with every front-end: a chain.Library or catalog
// opened with them, and the chains a loaded chain calls, read every
// format.
func Options(opts chain.Options) chain.Options {
	opts.Formats = formats
	return opts
}

// JSONSchema is the JSON Schema of every file format chainrun reads, for
// editors (`chainrun schema`).
func JSONSchema() map[string]any { return chain.JSONSchema() }
