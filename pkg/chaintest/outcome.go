package chaintest

import (
	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/run"
)

// refused is the status a case reports when its run could not start
// (chainrun run would exit 2): bad inputs, a step that cannot run.
const refused run.Status = "refused"

// outcome is what one case's run did.
type outcome struct {
	res  *run.Result
	exit int
	// events are the run's events in the order emitted.
	events []event.Event
	misses []*cassette.Miss
	// cost is what the run's model calls cost at the configured prices;
	// unpriced names a model no price is known for.
	cost     float64
	unpriced string
}

// span is when a step ran, as positions in the event stream.
type span struct{ started, finished int }

// ran is the steps that ran (not skipped, not kept from before), with
// their first start and last finish.
func (o *outcome) ran() map[string]span {
	out := map[string]span{}
	started := map[string]int{}
	for i, e := range o.events {
		if e.Handler != "" {
			continue // a lifecycle handler's steps are not the chain's path
		}
		switch e.Type {
		case event.StepStarted:
			if _, ok := started[e.Step]; !ok {
				started[e.Step] = i
			}
		case event.StepFinished:
			if e.Status == event.Skipped {
				continue
			}
			out[e.Step] = span{started: started[e.Step], finished: i}
		}
	}
	return out
}

// price adds up what the run's model calls cost.
func (o *outcome) price(prices *llm.Prices) {
	if prices == nil {
		return
	}
	for _, e := range o.events {
		if e.Type != event.LLMCall || e.Model == "" || (e.InputTokens == 0 && e.OutputTokens == 0) {
			continue
		}
		p, ok := prices.Of(e.Model)
		if !ok {
			o.unpriced = e.Model
			continue
		}
		o.cost += p.Cost(llm.Usage{InputTokens: e.InputTokens, OutputTokens: e.OutputTokens})
	}
}
