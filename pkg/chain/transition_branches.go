package chain

// TransitionBranch is one of a transition's branches (mcp-flowgate):
// once the executor ran and the output mappings wrote the context, the
// first branch whose guard holds picks the target instead of the
// transition's own, which stays the fallback.
type TransitionBranch struct {
	When   *Guard
	Target string
	Pos    Pos
}
