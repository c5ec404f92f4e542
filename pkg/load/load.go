// Package load reads a chain file in any format chainrun runs: its own
// (pkg/chain) and each peer's, through that peer's front-end. Every
// command, the store and the durable engines load through it, so a peer's
// file runs wherever a chainrun file runs. It may import, of this module:
// chain, chain/schema, chain/wfcheck, chain/wfyaml, format/contenox,
// format/flowgate, format/occ, yamlpos.
package load

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/schema"
	_ "github.com/chainrun/chainrun/pkg/chain/wfcheck" // the rules of state workflows, registered with chain
	_ "github.com/chainrun/chainrun/pkg/chain/wfyaml"  // the reader of workflows: files, registered with chain
	"github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/format/flowgate"
	"github.com/chainrun/chainrun/pkg/format/occ"
)

// formats are the front-ends, in the order their claims are tried.
var formats = []chain.Format{
	contenox.Format,
	flowgate.Format,
	occ.Format,
}

// Formats are the front-ends, in the order their claims are tried: the
// catalog asks them what a file holds without loading it.
func Formats() []chain.Format { return formats }

// Parse decodes and validates chain text of any format; file names it in
// messages.
func Parse(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	return chain.ParseAs(file, data, opts, formats)
}

// LoadFile reads and validates one chain file of any format.
func LoadFile(path string, opts chain.Options) (*chain.Loaded, error) {
	return chain.LoadFileAs(path, opts, formats)
}

// JSONSchema is the JSON Schema of every file format chainrun reads, for
// editors (`chainrun schema`).
func JSONSchema() map[string]any { return schema.JSONSchema() }
