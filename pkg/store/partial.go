package store

import (
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// crashNote is the error of a run whose process ended before it did.
const crashNote = "interrupted: the run's process ended before it finished"

// partialResult is the result of a run whose process died before it
// wrote one (a crash, kill -9): what its journal holds, shaped like the
// result an interrupt gives, so `runs show` lists what finished and what
// was running. A DAG run lists every step: the saved ones, the ones
// running when the process died (failed, interrupted) and the rest (not
// run). A workflow run stands at the state its last saved transition
// entered, with the executor that was running there and the link that
// runs it again. Nil when the snapshot cannot be read.
func (sv *Saved) partialResult() *record.Result {
	loaded, err := load.Parse(sv.Record.ChainFile+" (snapshot)", sv.Snapshot, chain.Options{LenientVariables: true})
	if err != nil {
		return nil
	}
	c := loaded.Chain
	if sv.Record.Name != "" {
		c = loaded.Named(sv.Record.Name)
	}
	if c == nil {
		return nil
	}
	res := &record.Result{RunID: sv.Record.RunID, Name: sv.Record.Name, Status: record.Interrupted,
		Error: crashNote, Vars: map[string]any{}, Steps: []record.StepResult{}, DurationMS: sv.Record.DurationMS}
	if t, ok := run.RunIDTime(sv.Record.RunID); ok {
		res.StartedAt = t.Format(time.RFC3339Nano)
	}
	if c.Workflow != nil {
		sv.partialFlow(c.Workflow, res)
	} else {
		sv.partialDAG(c, res)
	}
	res.KeepBytes()
	for _, s := range res.Steps {
		if u := s.Usage; u != nil {
			res.Usage.LLMCalls += u.LLMCalls
			res.Usage.InputTokens += u.InputTokens
			res.Usage.OutputTokens += u.OutputTokens
		}
	}
	return res
}

// partialDAG lists a DAG run's steps in the chain's order; the outputs of
// saved steps are its vars, when they were read.
func (sv *Saved) partialDAG(c *chain.Chain, res *record.Result) {
	for _, s := range c.Steps {
		rec, ok := sv.Steps[s.ID]
		if !ok {
			if sr, running := sv.interrupted(s.ID); running {
				res.Steps = append(res.Steps, sr)
			} else {
				res.Steps = append(res.Steps, record.StepResult{ID: s.ID, Status: record.StepSkipped, Reason: "not run: the run was interrupted"})
			}
			continue
		}
		res.Steps = append(res.Steps, rec.Result)
		if sv.values && s.OutputVar != "" && rec.Output != nil && !strings.Contains(s.ID, "/") {
			res.Vars[s.OutputVar] = savedPublic(*rec.Output)
		}
	}
}

// partialFlow replays a workflow run's saved transitions: its state,
// vars and context; the last attempt's transitions and steps; and the
// executor it was running, failed as an interrupt leaves it, with the
// link that retries it.
func (sv *Saved) partialFlow(w *chain.Workflow, res *record.Result) {
	wr := &response.WorkflowResult{State: w.InitialState, Chain: []response.ChainEntry{}, Context: map[string]any{}, Links: []response.Link{}}
	for i, h := range sv.Transitions {
		if h.Nested() || h.Ack != nil {
			continue // a transition of a workflow a step runs (its state is not the run's), or an acknowledgment
		}
		for name, v := range h.Vars { // read when the journal's values are
			if v.Masked {
				delete(res.Vars, name) // a secret's value is never saved
				continue
			}
			res.Vars[name] = savedPublic(v)
		}
		if h.Context != nil {
			wr.Context = h.Context
		}
		wr.State = h.To
		if i < sv.lastCall {
			continue // an earlier attempt's: the result traces the last
		}
		wr.Chain = append(wr.Chain, response.ChainEntry{FromState: h.From, Transition: h.Transition, ToState: h.To, DecidedBy: h.DecidedBy, Result: h.Result})
		if h.Step != nil {
			res.Steps = append(res.Steps, *h.Step)
		}
	}
	for _, r := range sv.running {
		if l, ok := response.RetryLink(w, wr.State, r.id); ok {
			l.Reruns = sv.begunInside(r.id)
			sr, _ := sv.interrupted(r.id)
			res.Steps = append(res.Steps, sr)
			wr.Links = append(wr.Links, l)
			res.Error = crashNote + "; " + r.id + " was running at state " + wr.State
		}
	}
	if s := w.State(wr.State); s != nil && (s.Goal != "" || s.Guidance != "") {
		wr.Guidance = &response.Guidance{Goal: s.Goal, Instructions: s.Guidance}
	}
	res.WorkflowResult = wr
}

// interrupted is the result of a step that was running when the run's
// process died, as an interrupt reports one; ok is false when the step
// was not running.
func (sv *Saved) interrupted(id string) (sr record.StepResult, ok bool) {
	i := sv.runningIndex(id)
	if i < 0 {
		return record.StepResult{}, false
	}
	return record.StepResult{ID: id, Status: record.StepFailed, Attempts: sv.running[i].attempts,
		Error: "interrupted: the run's process ended while it ran"}, true
}

// savedPublic is how a saved value appears among a result's vars.
func savedPublic(v record.SavedValue) any {
	if v.Data != nil {
		return v.Data
	}
	return v.Text
}

// begunInside are the steps inside step (STEP[i], STEP/ID) marked begun
// and never finished reusably: a retry of the step confirms them.
func (sv *Saved) begunInside(step string) []string {
	var out []string
	for id := range sv.Started {
		if i := strings.IndexAny(id, "/["); i > 0 && id[:i] == step {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
