package chaintest

import (
	"fmt"
	"math"
	"strings"
)

// Comparison is what changed since a baseline: the cases (on a model)
// newly failing and newly passing, and the changes of scores, pass rates
// and costs. A regression is a case, or a check of one, that passed in
// the baseline and fails now, or a case the baseline does not have that
// fails.
type Comparison struct {
	Baseline     string   `json:"baseline"`
	NewlyFailing []Change `json:"newly_failing"`
	NewlyPassing []Change `json:"newly_passing"`
	Scores       []Change `json:"score_changes"`
	PassRates    []Change `json:"pass_rate_changes"`
	Costs        []Change `json:"cost_changes"`
	Regressions  int      `json:"regressions"`
}

// Change is one difference from the baseline. Assertion names the check
// it is about ("" for the case's own result, rate or cost); Was is nil
// for a case the baseline does not have.
type Change struct {
	File      string `json:"file"`
	Case      string `json:"case"`
	Model     string `json:"model,omitempty"`
	Assertion string `json:"assertion,omitempty"`
	Was       any    `json:"was"`
	Now       any    `json:"now"`
	// Regression marks a change that fails the run under --fail-on
	// regression.
	Regression bool `json:"regression,omitempty"`
}

// Compare compares the report with a baseline (read from path) and
// keeps the result on the report.
func (r *Report) Compare(b *Baseline, path string) *Comparison {
	was := map[string]BaselineCase{}
	for _, c := range b.Cases {
		was[c.key()] = c
	}
	cmp := &Comparison{Baseline: path, NewlyFailing: []Change{}, NewlyPassing: []Change{}, Scores: []Change{}, PassRates: []Change{}, Costs: []Change{}}
	now := r.Baseline()
	for _, c := range now.Cases {
		at := Change{File: c.File, Case: c.Case, Model: c.Model}
		old, known := was[c.key()]
		if !known {
			if c.Result == Failed {
				at.Now, at.Regression = c.Result, true
				cmp.NewlyFailing = append(cmp.NewlyFailing, at)
			}
			continue
		}
		if old.Result != c.Result {
			ch := at
			ch.Was, ch.Now, ch.Regression = old.Result, c.Result, c.Result == Failed
			if c.Result == Failed {
				cmp.NewlyFailing = append(cmp.NewlyFailing, ch)
			} else {
				cmp.NewlyPassing = append(cmp.NewlyPassing, ch)
			}
		}
		if c.PassRate != nil && old.PassRate != nil && *c.PassRate != *old.PassRate {
			ch := at
			ch.Was, ch.Now = *old.PassRate, *c.PassRate
			cmp.PassRates = append(cmp.PassRates, ch)
		}
		if math.Abs(c.CostUSD-old.CostUSD) > 1e-12 {
			ch := at
			ch.Was, ch.Now = old.CostUSD, c.CostUSD
			cmp.Costs = append(cmp.Costs, ch)
		}
		cmp.assertions(at, old, c)
	}
	for _, ch := range cmp.NewlyFailing {
		if ch.Regression {
			cmp.Regressions++
		}
	}
	r.Comparison = cmp
	return cmp
}

// assertions compares the checks of a case on a model: one that held
// and now fails is a regression even when the case failed before (for
// another reason).
func (cmp *Comparison) assertions(at Change, old, now BaselineCase) {
	before := map[string]BaselineAssertion{}
	for _, a := range old.Assertions {
		before[a.Name] = a
	}
	for _, a := range now.Assertions {
		b, ok := before[a.Name]
		if !ok {
			continue
		}
		ch := at
		ch.Assertion = a.Name
		switch {
		case b.Passed && !a.Passed:
			ch.Was, ch.Now, ch.Regression = Passed, Failed, true
			cmp.NewlyFailing = append(cmp.NewlyFailing, ch)
		case !b.Passed && a.Passed:
			ch.Was, ch.Now = Failed, Passed
			cmp.NewlyPassing = append(cmp.NewlyPassing, ch)
		}
		if a.Score != nil && b.Score != nil && math.Abs(*a.Score-*b.Score) > 1e-9 {
			ch := at
			ch.Assertion, ch.Was, ch.Now = a.Name, *b.Score, *a.Score
			cmp.Scores = append(cmp.Scores, ch)
		}
	}
}

// writeText writes the comparison as a section of the text report.
func (cmp *Comparison) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "\nCOMPARED WITH %s: %d regression(s)\n", cmp.Baseline, cmp.Regressions)
	section := func(title string, list []Change, show func(Change) string) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(b, "  %s:\n", title)
		for _, ch := range list {
			mark := ""
			if ch.Regression {
				mark = "  (regression)"
			}
			fmt.Fprintf(b, "    %s%s%s\n", ch.what(), show(ch), mark)
		}
	}
	result := func(ch Change) string {
		if ch.Was == nil {
			return ": new, " + fmt.Sprint(ch.Now)
		}
		return fmt.Sprintf(": %v -> %v", ch.Was, ch.Now)
	}
	section("newly failing", cmp.NewlyFailing, result)
	section("newly passing", cmp.NewlyPassing, result)
	section("score changes", cmp.Scores, func(ch Change) string { return fmt.Sprintf(": %g -> %g", ch.Was, ch.Now) })
	section("pass rate changes", cmp.PassRates, func(ch Change) string {
		return fmt.Sprintf(": %s -> %s", pct(ch.Was.(float64)), pct(ch.Now.(float64)))
	})
	section("cost changes", cmp.Costs, func(ch Change) string { return fmt.Sprintf(": $%.6f -> $%.6f", ch.Was, ch.Now) })
	if len(cmp.NewlyFailing)+len(cmp.NewlyPassing)+len(cmp.Scores)+len(cmp.PassRates)+len(cmp.Costs) == 0 {
		b.WriteString("  no change\n")
	}
}

// what names the case (file, case, model, check) a change is about.
func (ch Change) what() string {
	s := ch.File + "  " + ch.Case
	if ch.Model != "" {
		s += " [" + ch.Model + "]"
	}
	if ch.Assertion != "" {
		s += "  " + ch.Assertion
	}
	return s
}

// Failing reports whether the run fails under failOn: "failure" (any
// case failed) or "regression" (a regression against the baseline);
// recordings no case asked for (--check) fail it either way.
func (r *Report) Failing(failOn string) bool {
	if len(r.Unused) > 0 {
		return true
	}
	if failOn == "regression" && r.Comparison != nil {
		return r.Comparison.Regressions > 0
	}
	return r.Failed > 0
}
