package record

import (
	"strings"
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

// Journal saves a run as it goes, so that it can be resumed after a
// failure, an interrupt or a crash. The store package implements it.
type Journal interface {
	// StepStarted marks that a step is about to run. Only steps that are
	// not idempotent are marked (resume must not repeat them blindly).
	StepStarted(step string) error
	// StepFinished records a finished step. It must be durable when it
	// returns: no step that depends on it starts before.
	StepFinished(rec StepRecord) error
	// Transition records a workflow transition taken. It must be durable
	// when it returns.
	Transition(rec TransitionRecord) error
}

// StepRecord is a finished step as saved: its result and its output.
type StepRecord struct {
	Result StepResult `json:"result"`
	// Output is the step's output_var value, when it set one.
	Output *SavedValue `json:"output,omitempty"`
	// Status is the HTTP status an http step got.
	HTTPStatus int `json:"http_status,omitempty"`
}

// SavedValue is a Value in JSON form.
type SavedValue struct {
	Text string `json:"text"`
	Data any    `json:"data,omitempty"`
	// Masked is true when the value held a secret input, which was
	// replaced by ***: it is never restored as if it were the value.
	Masked bool `json:"masked,omitempty"`
}

// Reusable reports whether a resumed run keeps this step's result instead
// of running it again: it succeeded, came from the cache, or was skipped
// because its condition was false.
func (r StepRecord) Reusable() bool {
	if r.Output != nil && r.Output.Masked {
		// its output held a secret, which is never saved: run it again
		return false
	}
	switch r.Result.Status {
	case StepSucceeded, StepCached:
		return true
	case StepSkipped:
		return strings.HasPrefix(r.Result.Reason, "condition is false")
	}
	return false
}

// WholeNumbers turns the whole numbers JSON decoding made float64 back
// into ints, as expressions first produced them: a restored value behaves
// like the original (n % 2 needs an int).
func WholeNumbers(v any) any {
	switch x := v.(type) {
	case float64:
		if x == float64(int64(x)) && x >= -1e15 && x <= 1e15 {
			return int(x)
		}
	case []any:
		for i := range x {
			x[i] = WholeNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = WholeNumbers(x[k])
		}
	}
	return v
}

// PrefixJournal saves a called chain's steps in its caller's journal
// under the calling step's id (CALLER/STEP), so that a resume keeps them
// one by one.
type PrefixJournal struct {
	Journal Journal
	Prefix  string
}

func (p PrefixJournal) StepStarted(step string) error { return p.Journal.StepStarted(p.Prefix + step) }

func (p PrefixJournal) StepFinished(rec StepRecord) error {
	rec.Result.ID = p.Prefix + rec.Result.ID
	return p.Journal.StepFinished(rec)
}

func (p PrefixJournal) Transition(rec TransitionRecord) error { return p.Journal.Transition(rec) }
