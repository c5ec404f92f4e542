package runtest

import (
	"maps"
	"slices"
	"sync"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// Journal keeps a run's saved steps and transitions in memory, as a state
// directory would: what an engine that resumes from a journal needs
// between turns.
type Journal struct {
	mu          sync.Mutex
	steps       map[string]record.StepRecord
	started     map[string]bool
	transitions []record.TransitionRecord
}

// StepStarted keeps that a non-idempotent step began.
func (j *Journal) StepStarted(id string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.started == nil {
		j.started = map[string]bool{}
	}
	j.started[id] = true
	return nil
}

// Started are the non-idempotent steps that began.
func (j *Journal) Started() map[string]bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.started)
}

// StepFinished keeps the step's latest record.
func (j *Journal) StepFinished(rec record.StepRecord) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.steps == nil {
		j.steps = map[string]record.StepRecord{}
	}
	j.steps[rec.Result.ID] = rec
	return nil
}

// Transition keeps a transition taken.
func (j *Journal) Transition(rec record.TransitionRecord) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.transitions = append(j.transitions, rec)
	return nil
}

// Resume is what a resume reads: the saved steps and transitions.
func (j *Journal) Resume() (map[string]record.StepRecord, []record.TransitionRecord) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.steps), slices.Clone(j.transitions)
}
