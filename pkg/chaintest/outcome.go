package chaintest

import (
	"strings"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/redact"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// refused is the status a case reports when its run could not start
// (chainrun run would exit 2): bad inputs, a step that cannot run.
const refused record.Status = "refused"

// outcome is what one case's run did.
type outcome struct {
	res  *record.Result
	exit int
	// events are the run's events in the order emitted.
	events []event.Event
	misses []*cassette.Miss
	// cost is what the run's model calls cost at the configured prices;
	// unpriced names a model no price is known for.
	cost     float64
	unpriced string
	// secrets are the case's secret values, masked in what it reports.
	secrets []cassette.Secret
	// grading asks the case's graders through its cassette session.
	grading *Grading
}

// mask hides the case's secrets in a line of its report (a miss quotes
// the request's text, which a CI system may keep).
func (o *outcome) mask(line string) string {
	for _, s := range o.secrets {
		for _, form := range redact.SecretForms(s.Value) {
			line = strings.ReplaceAll(line, form, "***")
		}
	}
	return line
}

// ran is the set of steps that ran (not skipped, not a lifecycle
// handler's).
func (o *outcome) ran() map[string]bool {
	out := map[string]bool{}
	for _, id := range o.sequence() {
		out[id] = true
	}
	return out
}

// sequence is the steps that ran, each time one finished, in order.
func (o *outcome) sequence() []string {
	var out []string
	for _, e := range o.events {
		if e.Type == event.StepFinished && e.Status != event.Skipped && e.Handler == "" {
			out = append(out, e.Step)
		}
	}
	return out
}

// price adds up what the run's model calls cost.
func (o *outcome) price(prices *llm.Prices) {
	o.cost, o.unpriced = o.costWhere(prices, func(string) bool { return true })
}
