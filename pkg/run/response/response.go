package response

import (
	"context"

	"github.com/chainrun/chainrun/pkg/chain"
)

// WorkflowResult is reference 000's response, part of the result of a
// state workflow run: where it stands, what ran on its own, what it knows
// and what may happen next.
type WorkflowResult struct {
	State string `json:"state"`
	// Outcome is the outcome the terminal state the run ended at
	// declares (failed, cancelled), when it declares one.
	Outcome string `json:"outcome,omitempty"`
	// Chain traces the transitions this call (a run or one resume) took.
	Chain   []ChainEntry   `json:"chain"`
	Context map[string]any `json:"context"`
	// Guidance is the current state's goal and guidance, when it has any.
	Guidance *Guidance `json:"guidance,omitempty"`
	// Links are the transitions that may be taken next: the choices at a
	// decision point, or the retry of a failed transition.
	Links []Link `json:"links"`
	// Queues are the approval queues a paused run waits in: that of the
	// human request that led to its state, and those of the human
	// executors of its links.
	Queues []string `json:"queues,omitempty"`
	// Deadline is when a paused decision point's on_timeout transition
	// will be taken (by the next resume after it).
	Deadline string `json:"deadline,omitempty"`
	// Within, when the run paused or stopped inside a workflow that a
	// workflow step runs, says where, outermost first: the links,
	// guidance and deadline are then that workflow's decision's.
	Within []SubState `json:"within,omitempty"`
}

// ChainEntry is one transition taken. DecidedBy and Result are set only
// for decisions and for branches on a task's result.
type ChainEntry struct {
	FromState  string `json:"fromState"`
	Transition string `json:"transition"`
	ToState    string `json:"toState"`
	// DecidedBy says who chose a decision point's transition: caller
	// (resume --take), human, model:<provider/model> or timeout.
	DecidedBy string `json:"decidedBy,omitempty"`
	// Result is the task result string a branch matched.
	Result string `json:"result,omitempty"`
}

// Guidance tells whoever decides what the decision is for.
type Guidance struct {
	Goal         string `json:"goal,omitempty"`
	Instructions string `json:"instructions,omitempty"`
	// Refs are the guidance fragments (skills) in scope.
	Refs []SkillRef `json:"refs,omitempty"`
	// Acknowledge are the bodies the acknowledgment guards of the
	// state's transitions ask to be read, so whoever decides reads them
	// here before acknowledging them (flow_ack.go).
	Acknowledge []Described `json:"acknowledge,omitempty"`
}

// Link is a transition that may be taken, with the title it is shown by.
type Link struct {
	Transition string `json:"transition"`
	Title      string `json:"title"`
	// Actor is who the transition waits for (agent or human); empty for
	// a deterministic transition.
	Actor string `json:"actor,omitempty"`
	// Rerun is set on the retry of a step that is not idempotent: taking
	// it again needs --rerun, a person's confirmation.
	Rerun bool `json:"rerun,omitempty"`
	// Reruns, on a retry, are the steps inside its executor (a parallel's
	// branch, a pipeline's step, a called workflow's) that are not
	// idempotent and began without finishing: taking it again confirms
	// each with --rerun too.
	Reruns []string `json:"reruns,omitempty"`
	// Blocked, under linkFilter: all, says why a transition of the state
	// cannot be taken now (a guard or condition that does not hold); it
	// is listed so whoever decides sees the whole state.
	Blocked string `json:"blocked,omitempty"`
	// Acknowledge names the subjects the transition's acknowledgment
	// guards still wait for: it can be taken once they are acknowledged
	// (resume --ack SUBJECT --take T, a model's describe call).
	Acknowledge []string `json:"acknowledge,omitempty"`
	// Args are the arguments the transition cannot be taken without
	// (its inputSchema requires them, nothing fills them): every hint
	// offering the link names them (--arg NAME=<type>).
	Args []chain.NeededArg `json:"requiredArguments,omitempty"`
}

// SubState is where a run stands inside a workflow that a workflow step
// runs: the step, the workflow, and its state.
type SubState struct {
	Step     string `json:"step"`
	Workflow string `json:"workflow"`
	State    string `json:"state"`
}

// Decision is what a person or a model is asked at a decision point.
type Decision struct {
	RunID    string
	Workflow string
	State    string
	Goal     string
	Guidance string
	Links    []Link
	Context  map[string]any
	// Skills are the fragments in scope, with their bodies when the
	// file's library holds them.
	Skills []*chain.Fragment
	// Check says whether a choice's arguments satisfy its transition
	// (text converted to the declared types, as --arg's): nil when
	// they do, else what is wrong, so that whoever asks can ask again.
	// Nil for a decision whose links take no arguments.
	Check func(c Choice) error
	// CheckArg says whether one argument of a transition, given alone,
	// is one it accepts (nil when it is), so that a person can be asked
	// it again at once. Nil when the links take no arguments.
	CheckArg func(transition, name string, v any) error
}

// Decider asks someone to choose one of a decision's links and returns
// the transition chosen, with the arguments its link needs. ok false
// means they did not choose (no terminal, or they declined): the run
// pauses.
type Decider func(ctx context.Context, d Decision) (c Choice, ok bool, err error)
