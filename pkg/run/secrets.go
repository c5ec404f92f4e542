package run

import "github.com/chainrun/chainrun/pkg/run/record"

// Mask hides secret values in text shown outside the run.
func (x *Execution) Mask(s string) string { return x.Secrets.Text(s) }

// MaskValue hides secret values in a value of any JSON shape.
func (x *Execution) MaskValue(v any) any {
	if x.Secrets == nil {
		return v
	}
	return x.Secrets.Value(v)
}

// maskResult hides secret values in the result's error, warnings and
// variables.
func (x *Execution) maskResult(res *record.Result) {
	if x.Secrets == nil {
		return
	}
	res.Error = x.Mask(res.Error)
	for i, w := range res.Warnings {
		res.Warnings[i] = x.Mask(w)
	}
	for k, v := range res.Vars {
		res.Vars[k] = x.MaskValue(v)
	}
	res.Output = x.MaskValue(res.Output)
	for _, list := range [][]record.StepResult{res.Steps, res.Handlers} {
		for i := range list {
			sr := &list[i]
			sr.MaskTexts(x.Mask)
		}
	}
}
