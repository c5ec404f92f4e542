package chaintest

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// runResult is what one run of a case found; nil fields of a run that
// never started (interrupted before it ran) are the zero value with ran
// unset.
type runResult struct {
	ran        bool
	failures   []string
	assertions []Assertion
	updated    []string
	status     string
	exit       int
	cost       float64
	duration   time.Duration
}

// passed reports whether every check of the run held.
func (r *runResult) passed() bool { return len(r.failures) == 0 }

// result is what the checker found of this run, the case's secrets
// masked in every line of it.
func (o *outcome) result(k *checker, took time.Duration) *runResult {
	res := &runResult{ran: true, failures: k.failures, updated: k.updated, status: string(o.res.Status),
		exit: o.exit, cost: o.cost, duration: took, assertions: k.assertions}
	for i, line := range res.failures {
		res.failures[i] = o.mask(line)
	}
	for i := range res.assertions {
		a := &res.assertions[i]
		a.Message, a.Reason, a.Want, a.Got = o.mask(a.Message), o.mask(a.Reason), o.mask(a.Want), o.mask(a.Got)
	}
	return res
}

// requiredRate is the share of its runs a case needs to pass.
func (tc *Case) requiredRate() float64 {
	if tc.PassRate == nil {
		return 1
	}
	return *tc.PassRate
}

// enough reports whether passes of runs meet a required rate (with a
// little room for the rounding of a rate like 0.7 of 10).
func enough(passes, runs int, required float64) bool {
	return runs > 0 && float64(passes) >= required*float64(runs)-1e-9
}

// settle gives a case the verdict of its runs. A case that ran once
// reports that run as it is; one that ran N times passes when the share
// of its runs that passed meets its pass_rate, and reports that share,
// each check's own, and a run's mean duration and cost.
func settle(cr *CaseReport, runs []*runResult, required float64) {
	for _, r := range runs {
		if !r.ran {
			cr.Result, cr.Skip = Skipped, "interrupted before it ran"
			return
		}
	}
	if len(runs) == 1 {
		r := runs[0]
		cr.Status, cr.ExitCode, cr.Failures, cr.Updated = r.status, r.exit, r.failures, r.updated
		cr.DurationMS, cr.CostUSD, cr.Assertions = r.duration.Milliseconds(), r.cost, r.assertions
		cr.Result = Passed
		if !r.passed() {
			cr.Result = Failed // a share of one run is all or nothing
		}
		return
	}
	var total time.Duration
	first := runs[0]
	for _, r := range runs {
		total += r.duration
		cr.CostUSD += r.cost / float64(len(runs))
		if r.passed() {
			cr.Passes++
		} else if first.passed() {
			first = r
		}
		for _, u := range r.updated {
			if !slices.Contains(cr.Updated, u) {
				cr.Updated = append(cr.Updated, u)
			}
		}
	}
	cr.Status, cr.ExitCode = first.status, first.exit
	cr.Runs, cr.DurationMS = len(runs), (total / time.Duration(len(runs))).Milliseconds()
	cr.PassRate, cr.RequiredPassRate = rate(cr.Passes, cr.Runs), &required
	cr.Assertions = tally(runs, required)
	cr.Result = Passed
	if !enough(cr.Passes, cr.Runs, required) {
		cr.Result = Failed
		cr.Failures = append(cr.Failures, fmt.Sprintf("pass rate: %d of %d runs passed (%s), the case requires %s", cr.Passes, cr.Runs, pct(*cr.PassRate), pct(required)))
		cr.Failures = append(cr.Failures, failureCounts(runs)...)
	}
}

// rate is passes/runs, rounded to the thousandth.
func rate(passes, runs int) *float64 {
	r := math.Round(float64(passes)/float64(runs)*1000) / 1000
	return &r
}

func pct(r float64) string { return fmt.Sprintf("%g%%", math.Round(r*1000)/10) }

// tally is each check's record over the runs of a case: how many of the
// runs that made it it held in, its first failure's message and texts,
// and its mean score. A check holds when its own rate meets the case's.
func tally(runs []*runResult, required float64) []Assertion {
	var out []Assertion
	at := map[string]int{}
	scores := map[string][]float64{}
	for _, r := range runs {
		for _, a := range r.assertions {
			i, seen := at[a.Name]
			if !seen {
				i = len(out)
				at[a.Name] = i
				out = append(out, Assertion{Name: a.Name})
			}
			t := &out[i]
			t.Runs++
			if a.Passed {
				t.Passes++
			} else if t.Message == "" {
				t.Message, t.Want, t.Got, t.Reason = a.Message, a.Want, a.Got, a.Reason
			}
			if t.Reason == "" {
				t.Reason = a.Reason
			}
			if a.Score != nil {
				scores[a.Name] = append(scores[a.Name], *a.Score)
			}
		}
	}
	for i := range out {
		t := &out[i]
		t.PassRate = rate(t.Passes, t.Runs)
		t.Passed = enough(t.Passes, t.Runs, required)
		if s := scores[t.Name]; len(s) > 0 {
			var sum float64
			for _, x := range s {
				sum += x
			}
			mean := sum / float64(len(s))
			t.Score = &mean
		}
	}
	return out
}

// failureCounts are the distinct failure lines of a case's runs, each
// with the number of runs it came in, in the order they first came.
func failureCounts(runs []*runResult) []string {
	var lines []string
	count := map[string]int{}
	for _, r := range runs {
		for _, f := range r.failures {
			if count[f] == 0 {
				lines = append(lines, f)
			}
			count[f]++
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("in %d of %d runs: %s", count[l], len(runs), l)
	}
	return out
}
