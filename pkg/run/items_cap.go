package run

import "fmt"

// MaxItems is the most items one step fans out over: a for_each, a
// loop's items, a parallel step's branches.for_each. A list is data a
// command or a model printed; two million lines held a run for twenty
// seconds and a gigabyte and more of memory (in `chainrun mcp`, beside
// every other run) for no chain anyone writes. Past it the step fails at
// once, before any item runs.
const MaxItems = 100000

// CheckItems refuses a list of n items, given to field, past MaxItems.
func CheckItems(field string, n int) error {
	if n <= MaxItems {
		return nil
	}
	return &permanentError{fmt.Errorf("%s has %d items, more than the %d a step fans out over", field, n, MaxItems)}
}
