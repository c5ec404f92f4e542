package store

import (
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
)

// partialResult is the result of a run whose process died before it
// wrote one (a crash, kill -9): what its journal holds, shaped like a
// result, so `runs show` lists the steps that finished. Steps the journal
// does not hold are listed as not run; the outputs of saved steps are its
// vars. Nil for a workflow, or when the snapshot cannot be read.
func (sv *Saved) partialResult() *run.Result {
	loaded, err := chain.Parse(sv.Record.ChainFile+" (snapshot)", sv.Snapshot, chain.Options{LenientVariables: true})
	if err != nil {
		return nil
	}
	c := loaded.Chain
	if sv.Record.Name != "" {
		c = loaded.Named(sv.Record.Name)
	}
	if c == nil || c.Workflow != nil {
		return nil // a workflow shows its saved transitions instead
	}
	res := &run.Result{RunID: sv.Record.RunID, Name: sv.Record.Name, Status: run.Interrupted,
		Error: "interrupted: the run's process ended before it finished", Vars: map[string]any{},
		Steps: []run.StepResult{}, DurationMS: sv.Record.DurationMS}
	if t, ok := run.RunIDTime(sv.Record.RunID); ok {
		res.StartedAt = t.Format(time.RFC3339Nano)
	}
	for _, s := range c.Steps {
		rec, ok := sv.Steps[s.ID]
		if !ok {
			res.Steps = append(res.Steps, run.StepResult{ID: s.ID, Status: run.StepSkipped, Reason: "not run: the run was interrupted"})
			continue
		}
		res.Steps = append(res.Steps, rec.Result)
		if u := rec.Result.Usage; u != nil {
			res.Usage.LLMCalls += u.LLMCalls
			res.Usage.InputTokens += u.InputTokens
			res.Usage.OutputTokens += u.OutputTokens
		}
		if s.OutputVar != "" && rec.Output != nil && !strings.Contains(s.ID, "/") {
			if rec.Output.Data != nil {
				res.Vars[s.OutputVar] = rec.Output.Data
			} else {
				res.Vars[s.OutputVar] = rec.Output.Text
			}
		}
	}
	return res
}
