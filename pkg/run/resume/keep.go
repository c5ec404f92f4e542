package resume

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// KeptSteps is what a resume of a DAG chain may keep of its saved steps:
// a reusable step whose dependencies are all kept. A step that runs again
// (a failed continue_on_error step, one whose output held a secret) takes
// every step downstream of it along, since they consumed its old output:
// the resumed result is one an uninterrupted run could give. The steps of
// a called chain (CALLER/STEP) go with their caller. redone names the
// reusable steps that run again for that reason. So do a parallel's
// branches and a pipeline's steps (STEP[i]). A workflow keeps its
// saved steps as they are (it replays transitions, not steps).
func KeptSteps(c *chain.Chain, saved map[string]record.StepRecord) (kept map[string]record.StepRecord, redone []string) {
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
		caller, nested := OwnerOf(id)
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

// OwnerOf is the step of the chain a saved id belongs to: the caller of a
// called chain's or a workflow's step (CALLER/STEP), the parallel or
// pipeline step of a branch or a pipeline's step (STEP[i]). nested is
// false for a step of the chain itself. (Step ids hold neither / nor [.)
func OwnerOf(id string) (owner string, nested bool) {
	i := strings.IndexAny(id, "/[")
	if i < 0 {
		return id, false
	}
	return id[:i], true
}

// ScopedRecords are the saved steps under prefix (CALLER/), named as the
// callee knows them.
func ScopedRecords(saved map[string]record.StepRecord, prefix string) map[string]record.StepRecord {
	out := map[string]record.StepRecord{}
	for id, rec := range saved {
		if inner, ok := strings.CutPrefix(id, prefix); ok {
			rec.Result.ID = inner
			out[inner] = rec
		}
	}
	return out
}

// HoldsSaved reports whether step s saves steps of its own under its id
// (--rerun names them so): a called chain's or workflow's, a parallel's
// branches, a pipeline's steps.
func HoldsSaved(s *chain.Step) bool {
	switch s.Kind {
	case chain.KindChain, chain.KindWorkflow, chain.KindParallel, chain.KindPipeline:
		return true
	}
	return false
}

// RerunSet is the steps a resume may run again although they started
// (resume --rerun): each must be a step or transition of c, or a step of a
// chain a chain step calls (CALLER/STEP). A name of nothing is a
// response.RerunNameError.
func RerunSet(c *chain.Chain, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		caller, nested := OwnerOf(id)
		if c.Step(id) == nil && (!nested || c.Step(caller) == nil || !HoldsSaved(c.Step(caller))) {
			return nil, &response.RerunNameError{Chain: c.Name, Step: id}
		}
		out[id] = true
	}
	return out, nil
}
