package basic

import "github.com/chainrun/chainrun/pkg/chain"

// noopKind does nothing and succeeds: mcp-flowgate's `kind: noop`
// executor, a transition that only moves the run (and maps its output:,
// if it has one), and a placeholder step in a DAG chain. Its value is
// empty; it has no fields of its own. It takes an idempotencyKey, as
// mcp-flowgate's executors all do, and sends it nowhere.
func init() {
	chain.Register(chain.Unit{
		Kind:  chain.KindNoop,
		Order: 80,
		Also:  []string{chain.KeyField},
	})
}
