package run

import (
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// keptSteps is what a resume of a DAG chain may keep of its saved steps:
// a reusable step whose dependencies are all kept. A step that runs again
// (a failed continue_on_error step, one whose output held a secret) takes
// every step downstream of it along, since they consumed its old output:
// the resumed result is one an uninterrupted run could give. The steps of
// a called chain (CALLER/STEP) go with their caller. redone names the
// reusable steps that run again for that reason. So do a parallel's
// branches and a pipeline's steps (STEP[i]). A workflow keeps its
// saved steps as they are (it replays transitions, not steps).
func keptSteps(c *chain.Chain, saved map[string]record.StepRecord) (kept map[string]record.StepRecord, redone []string) {
	if c.Workflow != nil || len(saved) == 0 {
		return saved, nil
	}
	memo := map[string]bool{}
	var keep func(id string) bool
	keep = func(id string) bool {
		if k, ok := memo[id]; ok {
			return k
		}
		memo[id] = false // the graph has no cycles; this only guards
		rec, ok := saved[id]
		k := ok && rec.Reusable()
		if s := c.Step(id); k && s != nil {
			for _, dep := range s.DependsOn {
				if !keep(dep) {
					k = false
				}
			}
		}
		memo[id] = k
		return k
	}
	kept = make(map[string]record.StepRecord, len(saved))
	for _, s := range c.Steps {
		rec, ok := saved[s.ID]
		if !ok {
			continue
		}
		if keep(s.ID) || !rec.Reusable() {
			kept[s.ID] = rec
		} else {
			redone = append(redone, s.ID)
		}
	}
	for id, rec := range saved {
		caller, nested := ownerOf(id)
		switch {
		case !nested:
			if c.Step(id) == nil {
				kept[id] = rec // not a step of this chain: left alone
			}
		case !keep(caller) && depsRedone(c, caller, keep):
			// its caller runs again on new values: its callee afresh
		default:
			kept[id] = rec
		}
	}
	return kept, redone
}

// depsRedone reports whether a dependency of step id runs again.
func depsRedone(c *chain.Chain, id string, keep func(string) bool) bool {
	s := c.Step(id)
	if s == nil {
		return false
	}
	for _, dep := range s.DependsOn {
		if !keep(dep) {
			return true
		}
	}
	return false
}
