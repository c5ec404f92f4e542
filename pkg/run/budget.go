package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// newBudget combines the chain's budget with --max-tokens (the smaller
// wins). nil when there is no cap.
func newBudget(c *chain.Chain, maxTokens int) *llm.Budget {
	return llm.NewBudget(budgetCaps(c, maxTokens))
}

// budgetCaps are the run's caps of tokens and model calls (0: none): the
// chain's budget and --max-tokens, the smaller winning.
func budgetCaps(c *chain.Chain, maxTokens int) (tokens, calls int) {
	if c.Budget != nil {
		if c.Budget.MaxTokens > 0 && (maxTokens <= 0 || c.Budget.MaxTokens < maxTokens) {
			maxTokens = c.Budget.MaxTokens
		}
		calls = c.Budget.MaxLLMCalls
	}
	return maxTokens, calls
}
