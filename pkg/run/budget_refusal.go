package run

import (
	"errors"

	"github.com/chainrun/chainrun/pkg/llm"
)

// budgetRefused reports whether err is the run's budget refusing a model
// call: such a failure stops the run from starting more work but never
// cancels the calls in flight, which were admitted within the budget.
func budgetRefused(err error) bool {
	var le *llm.Error
	return errors.As(err, &le) && le.Budget
}

// markRefused notes that the budget refused a call of step id.
func (x *Execution) markRefused(id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.refused == nil {
		x.refused = map[string]bool{}
	}
	x.refused[id] = true
}
