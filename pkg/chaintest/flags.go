package chaintest

import (
	"fmt"
	"io"

	"github.com/chainrun/chainrun/pkg/cassette"
)

// Formats are the reports chainrun test writes (-o).
var Formats = []string{"text", "json", "junit", "html"}

// MaxRepeat is the most runs of each case --repeat takes: a pass rate is
// judged well within it, and each run is held for the report, so a count
// past any use would exhaust the memory before the first case ends.
const MaxRepeat = 10000

// CheckRepeat refuses a --repeat that is not a count of runs (or is past
// MaxRepeat), or one that would record: the repeats of a case replay its
// cassette (or, with --live, ask the providers afresh), so a case is
// recorded first, once; a live repeat (live) records nothing at all.
func CheckRepeat(repeat int, mode cassette.Mode, live bool) error {
	switch {
	case repeat < 1 || repeat > MaxRepeat:
		return fmt.Errorf("--repeat %d: want from 1 to %d runs of each case", repeat, MaxRepeat)
	case live && mode != cassette.ModeNone:
		return fmt.Errorf("--record=%s with --live --repeat: a live run asks the providers afresh and records nothing; record without --live", mode)
	case repeat > 1 && mode != cassette.ModeNone:
		return fmt.Errorf("--repeat %d with --record=%s: record the answers first (without --repeat), then repeat the cases; with --live the repeats ask the providers afresh", repeat, mode)
	}
	return nil
}

// Baselines reads the baseline to compare with (path "" for none) and
// settles --fail-on: "regression" (the default with a baseline) or
// "failure" (the default without, and today's rule: any failed case).
func Baselines(path, failOn string) (*Baseline, string, error) {
	switch failOn {
	case "":
		failOn = "failure"
		if path != "" {
			failOn = "regression"
		}
	case "failure":
	case "regression":
		if path == "" {
			return nil, "", fmt.Errorf("--fail-on regression: a regression is against a baseline: give --baseline FILE")
		}
	default:
		return nil, "", fmt.Errorf("--fail-on %q: use regression or failure", failOn)
	}
	if path == "" {
		return nil, failOn, nil
	}
	b, err := LoadBaseline(path)
	return b, failOn, err
}

// Finish compares the report with base (when given, read from
// basePath) and writes the report in format to w.
func (r *Report) Finish(w io.Writer, format string, verbose bool, base *Baseline, basePath string) error {
	if base != nil {
		r.Compare(base, basePath)
	}
	switch format {
	case "json":
		return r.WriteJSON(w)
	case "junit":
		return r.WriteJUnit(w)
	case "html":
		return r.WriteHTML(w)
	}
	return r.WriteText(w, verbose)
}
