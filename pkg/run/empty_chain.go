package run

import "fmt"

// EmptyChainError refuses a run of a file read as OCC's that holds no
// step (chain.Chain.Empty), before anything runs, as OCC's executor
// refuses one: its canvas saves such a workspace, and its loader loads it.
type EmptyChainError struct {
	Chain, File string
}

func (e *EmptyChainError) Error() string {
	where := ""
	if e.File != "" {
		where = e.File + ": "
	}
	return where + fmt.Sprintf("chain %q has no executable steps: it holds no step (a workspace OCC's canvas saves); add steps to run it", e.Chain)
}

// NothingRan marks the error as one from before anything ran (exit 2).
func (e *EmptyChainError) NothingRan() bool { return true }
