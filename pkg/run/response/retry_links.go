package response

import (
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
)

// RetryOf is the link that takes t again after it failed.
func RetryOf(t *chain.Transition) Link {
	l := LinkOf(t)
	l.Title = "Retry: " + t.DisplayTitle()
	return l
}

// RetryLink is the link that takes again what a workflow was running at
// state when it stopped unfinished (a failure, an interrupt, a crash): the
// state's task, or its transition named name, whose executor ran. ok is
// false when the state has neither.
func RetryLink(w *chain.Workflow, state, name string) (l Link, ok bool) {
	s := w.State(state)
	switch {
	case s == nil:
		return Link{}, false
	case s.Task != nil && s.Name == name:
		return TaskRetry(s), true
	}
	if t := s.Transition(name); t != nil && t.Executor != nil {
		return TransitionRetry(t), true
	}
	return Link{}, false
}

// TransitionRetry is the link that runs a transition's executor again.
func TransitionRetry(t *chain.Transition) Link {
	l := RetryOf(t)
	// a fallback that must never repeat unconfirmed may have run too
	l.Rerun = t.Executor != nil && slices.ContainsFunc(append([]*chain.Step{t.Executor}, t.Executor.Fallbacks...), NeedsConfirmation)
	return l
}

// TaskRetry is the link that runs a state's task again.
func TaskRetry(s *chain.State) Link {
	return Link{Transition: s.Name, Title: "Retry: " + chain.Humanize(s.Name), Rerun: NeedsConfirmation(s.Task)}
}

// LinkOf is the link that takes t, with the arguments it cannot be
// taken without, so that every hint made of it can be followed.
func LinkOf(t *chain.Transition) Link {
	return Link{Transition: t.Name, Title: t.DisplayTitle(), Actor: ActorLink(t.Actor), Args: t.NeededArgs()}
}

// ActorLink is the actor a link shows: who it waits for.
func ActorLink(actor string) string {
	if actor == chain.ActorDeterministic {
		return ""
	}
	return actor
}

// NeedsConfirmation reports whether a step must not run again without a
// person confirming it: it is marked idempotent: false. (A chain step's
// callee saves its own steps, each confirmed on its own.)
func NeedsConfirmation(s *chain.Step) bool {
	return s.Idempotent != nil && !*s.Idempotent
}
