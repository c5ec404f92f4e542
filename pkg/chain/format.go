package chain

import (
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// Format is a front-end: the reader of one peer's file format into the
// model. It owns the peer's names, aliases, history and messages; what it
// returns is validated by the same rules as chainrun's own chains, so a
// peer's file means the same thing wherever it runs. pkg/load holds the
// list; the model does not know which front-end a chain came from except
// for the Reading the front-end sets (reading.go): knobs that say what
// the peer's file means where chainrun's own format is stricter, hooks
// for the peer's own judgements, and its name for messages.
type Format struct {
	// Name is the format's name in messages and docs.
	Name string
	// Claims reports whether a document whose root is this mapping is
	// written in the format. The formats' claims do not overlap.
	Claims func(root *yaml.Node) bool
	// Decode reads the document's chains, d collecting its findings; none
	// when the document cannot be read.
	Decode func(d *yamlpos.Diags, root *yaml.Node) []*Chain
}
