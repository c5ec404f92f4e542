package chaintest

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/render"
)

// Assertion is the record of one check a case made: each matcher, the
// status, the path, each budget — those that held as well as those that
// did not, so that a report (or a baseline) can say which check of a
// case changed, not only that the case did.
type Assertion struct {
	// Name is what was checked, as the test file writes it: output,
	// steps.review.status, vars.total, max_cost_usd, …
	Name   string `json:"name"`
	Passed bool   `json:"passed"`
	// Message says how the check failed ("" when it held).
	Message string `json:"message,omitempty"`
	// Score and Reason are a graded check's: the number it scored and
	// why (a grader's words); nil and "" for a check that is not graded.
	Score  *float64 `json:"score,omitempty"`
	Reason string   `json:"reason,omitempty"`
	// Want and Got are the whole expected and produced texts of a failed
	// equals or golden comparison, for a report that shows their diff.
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
	// Runs and Passes count the repeats of a case (--repeat); PassRate
	// is Passes/Runs. Set only when the case ran more than once.
	Runs     int      `json:"runs,omitempty"`
	Passes   int      `json:"passes,omitempty"`
	PassRate *float64 `json:"pass_rate,omitempty"`
}

// assert records one check: err nil means it held. verdict, when set,
// is a graded check's score and reason. Every check of the checker goes
// through here, and a failed one is also a line of the case's failures.
func (k *checker) assert(name string, err error, verdict *Verdict) {
	a := Assertion{Name: name, Passed: err == nil}
	if err != nil {
		a.Message = err.Error()
		k.failures = append(k.failures, name+": "+a.Message)
	}
	if verdict != nil {
		a.Score, a.Reason = verdict.Score, verdict.Reason
	}
	k.assertions = append(k.assertions, a)
}

// hold records check name as held when ok, else failed with the message
// format gives (whose text is the whole failure line, name included).
func (k *checker) hold(name string, ok bool, format string, args ...any) {
	if ok {
		k.assertions = append(k.assertions, Assertion{Name: name, Passed: true})
		return
	}
	line := fmt.Sprintf(format, args...)
	k.failures = append(k.failures, line)
	k.assertions = append(k.assertions, Assertion{Name: name, Message: strings.TrimPrefix(line, name+": ")})
}

// maxShown bounds each of the texts a failed comparison keeps for its
// diff: a report stays readable, and a large golden file is not copied
// into it whole.
const maxShown = 64 << 10

// wantGot are the expected and produced texts of a failed equals or
// golden comparison ("" when neither is what failed): what a report
// diffs.
func (m *Matcher) wantGot(v any, golden *string) (want, got string) {
	text := render.Text(v)
	switch {
	case golden != nil && text != *golden:
		return clipShown(*golden), clipShown(text)
	case m.hasEquals && !equal(m.equals, v):
		return clipShown(render.Text(m.equals)), clipShown(text)
	}
	return "", ""
}

func clipShown(s string) string {
	if len(s) <= maxShown {
		return s
	}
	return strings.ToValidUTF8(s[:maxShown], "") + "\n…"
}
