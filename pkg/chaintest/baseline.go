package chaintest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// BaselineVersion is the baseline format this package writes and reads.
const BaselineVersion = 1

// Baseline is a test run's verdicts, kept to compare a later run with
// (chainrun test --save-baseline FILE, then --baseline FILE): for each
// case on each model of its matrix, its result, pass rate, each check's
// result and score, its cost and duration.
type Baseline struct {
	Version int            `json:"version"`
	Cases   []BaselineCase `json:"cases"`
}

// BaselineCase is one case's verdict on one model.
type BaselineCase struct {
	File       string              `json:"file"`
	Case       string              `json:"case"`
	Model      string              `json:"model,omitempty"`
	Result     string              `json:"result"`
	PassRate   *float64            `json:"pass_rate,omitempty"`
	Required   *float64            `json:"required_pass_rate,omitempty"`
	Assertions []BaselineAssertion `json:"assertions,omitempty"`
	CostUSD    float64             `json:"cost_usd"`
	DurationMS int64               `json:"duration_ms"`
}

// BaselineAssertion is one check's verdict.
type BaselineAssertion struct {
	Name     string   `json:"name"`
	Passed   bool     `json:"passed"`
	Score    *float64 `json:"score,omitempty"`
	PassRate *float64 `json:"pass_rate,omitempty"`
}

// key names a case on a model across runs.
func (b BaselineCase) key() string { return b.File + "\x00" + b.Case + "\x00" + b.Model }

// Baseline is the report's verdicts, skipped cases left out (they have
// none).
func (r *Report) Baseline() *Baseline {
	b := &Baseline{Version: BaselineVersion, Cases: []BaselineCase{}}
	for _, f := range r.Files {
		for _, c := range f.Cases {
			if c.Result == Skipped {
				continue
			}
			bc := BaselineCase{File: f.Path, Case: c.Name, Model: c.Model, Result: c.Result, PassRate: c.PassRate,
				Required: c.RequiredPassRate, CostUSD: c.CostUSD, DurationMS: c.DurationMS}
			for _, a := range c.Assertions {
				bc.Assertions = append(bc.Assertions, BaselineAssertion{Name: a.Name, Passed: a.Passed, Score: a.Score, PassRate: a.PassRate})
			}
			b.Cases = append(b.Cases, bc)
		}
	}
	return b
}

// SaveBaseline writes the report's verdicts to path, atomically.
func (r *Report) SaveBaseline(path string) error {
	data, err := json.MarshalIndent(r.Baseline(), "", "  ")
	if err != nil {
		return err
	}
	if err := fsutil.WriteFile(path, append(data, '\n'), false); err != nil {
		return fmt.Errorf("--save-baseline %s: %v", path, unwrapPath(err))
	}
	return nil
}

// maxBaseline bounds a baseline file, read whole.
const maxBaseline = 64 << 20

// LoadBaseline reads a baseline an earlier run saved; every problem
// names the file.
func LoadBaseline(path string) (*Baseline, error) {
	data, err := fsutil.ReadRegular(path, maxBaseline)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %v", path, unwrapPath(err))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("--baseline %s: not a baseline chainrun test --save-baseline wrote: %v", path, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("--baseline %s: not a baseline: more follows its JSON object", path)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("--baseline %s: version %d: this chainrun reads baselines of version %d (save it again with --save-baseline)", path, b.Version, BaselineVersion)
	}
	for i, c := range b.Cases {
		if c.File == "" || c.Case == "" || (c.Result != Passed && c.Result != Failed) {
			return nil, fmt.Errorf("--baseline %s: cases[%d]: a case needs file, case and a result of passed or failed", path, i)
		}
	}
	return &b, nil
}
