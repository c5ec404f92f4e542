package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/format/occ"
)

// testFormats are the front-ends the tests read peers' files with, as
// pkg/load reads them (this package's tests cannot import pkg/load,
// which will import the kinds that import this package).
var testFormats = []chain.Format{
	occ.Format,
}

// parseChain reads chain text of any format the tests use.
func parseChain(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	return chain.ParseAs(file, data, opts, testFormats)
}
