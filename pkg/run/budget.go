package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// newBudget combines the chain's budget with --max-tokens and --max-cost
// (the smaller wins), requests priced at prices. nil when there is no cap.
func newBudget(c *chain.Chain, req Request, prices *llm.Prices) *llm.Budget {
	tokens, calls := budgetCaps(c, req.MaxTokens)
	return llm.NewCostBudget(tokens, calls, costCap(c, req.MaxCostUSD), prices)
}

// costCap is the run's cap in dollars (0: none): the chain's
// budget.max_cost_usd and --max-cost, the smaller winning.
func costCap(c *chain.Chain, maxCost float64) float64 {
	if c.Budget != nil && c.Budget.MaxCostUSD > 0 && (maxCost <= 0 || c.Budget.MaxCostUSD < maxCost) {
		maxCost = c.Budget.MaxCostUSD
	}
	return maxCost
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
