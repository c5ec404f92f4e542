package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	loader "github.com/chainrun/chainrun/pkg/load"
)

// parseChain reads chain text of any format the tests use, as pkg/load
// reads it (pkg/load imports no kind, so this package's tests may).
func parseChain(file string, data []byte, opts chain.Options) (*chain.Loaded, error) {
	return loader.Parse(file, data, opts)
}
