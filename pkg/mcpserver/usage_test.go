package mcpserver

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestAnswersCarryTheCost: a run that asked a model answers with its usage
// and cost; one that asked none says nothing of it.
func TestAnswersCarryTheCost(t *testing.T) {
	asked := fromResult(&record.Result{RunID: "r", Status: record.Succeeded, Usage: record.Usage{LLMCalls: 2, InputTokens: 10, OutputTokens: 5, CostUSD: 0.25, Unpriced: []string{"x/y"}}}, 1)
	if asked.Usage == nil || asked.Usage.CostUSD != 0.25 || asked.Usage.Unpriced[0] != "x/y" {
		t.Errorf("usage %+v", asked.Usage)
	}
	if none := fromResult(&record.Result{RunID: "r", Status: record.Succeeded}, 1); none.Usage != nil {
		t.Errorf("a run without models: %+v", none.Usage)
	}
}
