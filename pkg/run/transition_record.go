package run

import (
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TransitionRecord is a transition as saved: replayed in order, the
// records rebuild the run's state, variables and context on resume.
type TransitionRecord struct {
	From       string `json:"fromState"`
	Transition string `json:"transition"`
	To         string `json:"toState"`
	Actor      string `json:"actor,omitempty"`
	DecidedBy  string `json:"decidedBy,omitempty"`
	// Principal is the id of the principal the run acted for when it
	// took the transition (config principal), counted by evidence guards.
	Principal string `json:"principal,omitempty"`
	Result    string `json:"result,omitempty"`
	// Vars are the variables the transition set: its executor's output
	// (and an http status), a compose variable.
	Vars map[string]SavedValue `json:"vars,omitempty"`
	// Context is the whole context after the transition; MaskedContext
	// names its keys that held a secret input (saved as ***).
	Context       map[string]any `json:"context,omitempty"`
	MaskedContext []string       `json:"masked_context,omitempty"`
	// Args are the arguments the decision gave ($.arguments).
	Args map[string]any `json:"arguments,omitempty"`
	// Step is the executor's or task's result, when one ran.
	Step *StepResult `json:"step,omitempty"`
	// Evidence is what the steps inside the executor recorded (its
	// branches, a pipeline's steps), counted by evidence guards.
	Evidence []response.EvidenceRecord `json:"evidence,omitempty"`
	// Hook marks a record no transition made: a state's onEnter (From
	// and To are the state) or the workflow's timeout (To is onTimeout's
	// target).
	Hook bool `json:"hook,omitempty"`
	// Ack, on a Hook record that stays at From, is a subject's body the
	// run acknowledged there (acknowledgment guards read it).
	Ack  *chain.Acknowledgment `json:"acknowledged,omitempty"`
	Time time.Time             `json:"time"`
	// Within, on a transition of a workflow that a workflow step runs,
	// is the path of the steps it runs inside ("vet", "vet/inner");
	// empty on the run's own transitions. Enter marks where such a
	// workflow began: the transition outside that runs it.
	Within string    `json:"within,omitempty"`
	Enter  *SubEntry `json:"enter,omitempty"`
}

// Nested reports whether the record belongs to a workflow a workflow
// step runs, not to the run's own workflow.
func (r TransitionRecord) Nested() bool { return r.Within != "" }

// SubEntry is the transition whose workflow step began a workflow of its
// own: where the run was, which transition, who decided it and with what
// arguments, so that a resume goes on with it.
type SubEntry struct {
	State      string         `json:"state"`
	Transition string         `json:"transition"`
	Workflow   string         `json:"workflow"`
	DecidedBy  string         `json:"decidedBy,omitempty"`
	Actor      string         `json:"actor,omitempty"`
	Args       map[string]any `json:"arguments,omitempty"`
}
