package flow

import (
	"sort"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// replay rebuilds state, variables and context from the transitions
// earlier calls took.
func (f *flow) replay(history []record.TransitionRecord) {
	lost := map[string]bool{}
	for _, h := range history {
		if h.Nested() {
			f.replayNested(h)
			continue
		}
		if h.Ack != nil {
			// an acknowledgment: the run stayed where it was
			f.history = append(f.history, h)
			continue
		}
		// the run moved on: any workflow a step ran there has ended
		f.pending = nil
		for name, v := range h.Vars {
			if v.Masked {
				// it held a secret input, which is never saved: leave it
				// unset rather than pass *** on as its value
				lost[name] = true
				f.Vars.Del(name)
				continue
			}
			delete(lost, name)
			f.Vars.Set(name, interp.Value{Text: v.Text, Data: record.WholeNumbers(v.Data)})
		}
		if h.Context != nil {
			f.context = record.WholeNumbers(h.Context).(map[string]any)
			for _, k := range h.MaskedContext {
				delete(f.context, k)
				lost["context."+k] = true
			}
		}
		if !h.Hook || h.From != h.To {
			f.state, f.arrived = h.To, f.NotAhead(h.Time)
		}
		f.enterPending = enterPending(f.w, h)
		f.noteArrival(h)
		f.noteOutput(h)
		f.history = append(f.history, h)
	}
	f.hidden = lost
	if len(lost) > 0 {
		names := make([]string, 0, len(lost))
		for n := range lost {
			names = append(names, n)
		}
		sort.Strings(names)
		f.Warn("resumed without " + strings.Join(names, ", ") + ": they held a secret input's value, which is never saved; a step that reads them fails")
	}
	f.Vars.Set(response.ContextVar, interp.Value{Data: f.context})
}

// checkTake refuses, before anything runs, a --take that names no link of
// the state the run is at.
func (f *flow) checkTake() error {
	if f.take == "" {
		return nil
	}
	if f.take == onEnterName && f.enterPending {
		// the retry link of a failed onEnter: driving the run runs it
		f.take = ""
		return nil
	}
	s := f.w.State(f.state)
	if s == nil || s.Terminal {
		return &response.TakeError{Take: f.take, State: f.state}
	}
	if s.Task != nil {
		if f.take == s.Name {
			return nil
		}
		return &response.TakeError{Take: f.take, State: f.state, Links: []response.Link{{Transition: s.Name, Title: "Retry: " + chain.Humanize(s.Name)}}}
	}
	cands := f.assess(s)
	links := append(linksOf(passing(cands)), waitingLinks(waiting(cands))...)
	for _, c := range cands {
		switch {
		case c.t.Name != f.take:
		case c.err != nil: // a condition that cannot be evaluated
			return &response.TakeError{Take: f.take, State: f.state, Links: links, Why: c.err.Error()}
		case !c.ok:
			return &response.TakeError{Take: f.take, State: f.state, Links: links, Why: c.why}
		default:
			return nil
		}
	}
	return &response.TakeError{Take: f.take, State: f.state, Links: links}
}
