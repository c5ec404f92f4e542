package run

import (
	"reflect"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// MaskedValue is v as saved: secret input values replaced by ***, and
// marked when that changed it.
func (x *Execution) MaskedValue(v record.SavedValue) record.SavedValue {
	out := record.SavedValue{Text: x.Mask(v.Text), Data: x.MaskValue(v.Data)}
	out.Masked = out.Text != v.Text || !reflect.DeepEqual(out.Data, v.Data)
	return out
}

// record builds the saved form of a finished step.
func (x *Execution) record(s *chain.Step, sr *record.StepResult) record.StepRecord {
	rec := record.StepRecord{Result: *sr}
	if s.OutputVar != "" {
		if v, ok := x.Vars.Get(s.OutputVar); ok {
			rec.Output = &record.SavedValue{Text: v.Text, Data: v.Data}
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
func (x *Execution) journal(s *chain.Step, sr *record.StepResult) {
	if x.Req.Journal == nil {
		return
	}
	if err := x.Req.Journal.StepFinished(x.mask2(x.record(s, sr))); err != nil {
		x.Warn("saving step " + s.ID + ": " + err.Error())
	}
}

// mask2 hides secret inputs in a step record before it is saved.
func (x *Execution) mask2(rec record.StepRecord) record.StepRecord {
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
func (x *Execution) restore(s *chain.Step, rec record.StepRecord) {
	if s.OutputVar == "" {
		return
	}
	v := interp.Value{}
	if rec.Output != nil {
		v = interp.Value{Text: rec.Output.Text, Data: record.WholeNumbers(rec.Output.Data)}
	}
	v.JSON = s.OutputSchema == "json"

	x.Vars.Set(s.OutputVar, v)
	if s.Kind == chain.KindHTTP && rec.Result.Status != record.StepSkipped {
		x.setStatus(s, rec.HTTPStatus)
	}
}

// prefixed saves a called chain's steps in its caller's journal as
// CALLER/STEP, so that a resume keeps them one by one.
func prefixed(j record.Journal, prefix string) record.Journal {
	if j == nil {
		return nil
	}
	return record.PrefixJournal{Journal: j, Prefix: prefix}
}
