package run

import (
	"reflect"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

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

// MaskedValue is v as saved: secret input values replaced by ***, and
// marked when that changed it.
func (x *Execution) MaskedValue(v SavedValue) SavedValue {
	out := SavedValue{Text: x.Mask(v.Text), Data: x.MaskValue(v.Data)}
	out.Masked = out.Text != v.Text || !reflect.DeepEqual(out.Data, v.Data)
	return out
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

// record builds the saved form of a finished step.
func (x *Execution) record(s *chain.Step, sr *StepResult) StepRecord {
	rec := StepRecord{Result: *sr}
	if s.OutputVar != "" {
		if v, ok := x.Vars.Get(s.OutputVar); ok {
			rec.Output = &SavedValue{Text: v.Text, Data: v.Data}
		}
		if v, ok := x.Vars.Get(s.OutputVar + "_status"); ok && s.Kind == chain.KindHTTP {
			if f, isNum := v.Data.(float64); isNum {
				rec.HTTPStatus = int(f)
			}
		}
	}
	return rec
}

// journal writes a finished step, keeping the first failure to report it
// with the result (a run is not failed by a state directory it cannot
// write to, but it says so).
func (x *Execution) journal(s *chain.Step, sr *StepResult) {
	if x.Req.Journal == nil {
		return
	}
	if err := x.Req.Journal.StepFinished(x.mask2(x.record(s, sr))); err != nil {
		x.Warn("saving step " + s.ID + ": " + err.Error())
	}
}

// mask2 hides secret inputs in a step record before it is saved.
func (x *Execution) mask2(rec StepRecord) StepRecord {
	if x.Secrets == nil {
		return rec
	}
	rec.Result.MaskTexts(x.Mask)
	if rec.Output != nil {
		out := x.MaskedValue(*rec.Output)
		rec.Output = &out
	}
	return rec
}

func (x *Execution) Warn(msg string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if slices.Contains(x.warnings, msg) {
		return // a loop's items or a step's attempts say it once
	}
	x.warnings = append(x.warnings, msg)
}

// restore puts a saved step's output back into the run, for resume.
func (x *Execution) restore(s *chain.Step, rec StepRecord) {
	if s.OutputVar == "" {
		return
	}
	v := Value{}
	if rec.Output != nil {
		v = Value{Text: rec.Output.Text, Data: WholeNumbers(rec.Output.Data)}
	}
	v.JSON = s.OutputSchema == "json"

	x.Vars.Set(s.OutputVar, v)
	if s.Kind == chain.KindHTTP && rec.Result.Status != StepSkipped {
		x.setStatus(s, rec.HTTPStatus)
	}
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

// prefixed saves a called chain's steps in its caller's journal as
// CALLER/STEP, so that a resume keeps them one by one.
func prefixed(j Journal, prefix string) Journal {
	if j == nil {
		return nil
	}
	return PrefixJournal{Journal: j, Prefix: prefix}
}

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
