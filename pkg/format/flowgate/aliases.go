package flowgate

import "github.com/chainrun/chainrun/pkg/chain"

// timeoutMs is mcp-flowgate's earlier spelling of an executor's time
// limit: read as timeout_ms on every step, with a note, wherever a file
// is read through pkg/load.
func init() {
	chain.RegisterStepAlias("timeoutMs", "timeout_ms", "read as timeout_ms (an earlier mcp-flowgate spelling of the executor's time limit)")
}
