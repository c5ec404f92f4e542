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
	// Names are the names of the chains a file of the format holds, read
	// without validating it, so that the catalog finds a file that fails
	// validation by name and reports its errors; none when data holds no
	// such chain. Nil: the format's chains are not found that way.
	Names func(data []byte) []string
	// JSONChain reports whether a JSON file of a chains directory is one
	// of the format's chains: a chains directory may hold other JSON (a
	// schema for editors, say), which the catalog leaves out. Nil: the
	// format has no JSON files.
	JSONChain func(data []byte) bool
}
