package store

import (
	"slices"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Approval is a paused workflow run that waits on a person: a decision
// point with a human link, or a human request's queue.
type Approval struct {
	RunID  string          `json:"run_id"`
	Name   string          `json:"name"`
	State  string          `json:"state"`
	Goal   string          `json:"goal,omitempty"`
	Queues []string        `json:"queues"`
	Links  []response.Link `json:"links"`
	// Since is when the run paused (its last update).
	Since string `json:"since"`
}

// Approvals lists the paused runs that wait on a person, newest first;
// with queue set, only those waiting in that queue. It reads each paused
// run's summary, never its outputs.
func (s *Store) Approvals(queue string) ([]Approval, error) {
	recs, err := s.List()
	if err != nil {
		return nil, err
	}
	out := []Approval{}
	for _, r := range recs {
		if r.Status != record.Paused {
			continue
		}
		saved, err := s.Summary(r.RunID)
		if err != nil || saved.Result == nil || saved.Result.WorkflowResult == nil {
			continue
		}
		wr := saved.Result.WorkflowResult
		human := len(wr.Queues) > 0
		for _, l := range wr.Links {
			human = human || l.Actor == "human"
		}
		if !human || (queue != "" && !slices.Contains(wr.Queues, queue)) {
			continue
		}
		a := Approval{RunID: r.RunID, Name: r.Name, State: wr.State, Queues: wr.Queues, Links: wr.Links, Since: r.UpdatedAt}
		if a.Queues == nil {
			a.Queues = []string{}
		}
		if wr.Guidance != nil {
			a.Goal = wr.Guidance.Goal
		}
		out = append(out, a)
	}
	return out, nil
}
