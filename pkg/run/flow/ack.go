package flow

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Acknowledgments (mcp-flowgate's guidance_acknowledged and
// script_acknowledged guards): a transition may wait until the run has
// acknowledged the body of a skill or a script. Whoever decides is shown
// the bodies (the result's guidance.acknowledge, a model's describe tool)
// and acknowledges them: a model by describing the subject, a caller with
// resume --ack. Each acknowledgment is saved as a record of its own that
// stays at the state (Hook, Ack), with the body's hash then, so it counts
// for the rest of the run, across resumes, until the body changes; the
// scope is the workflow run, as mcp-flowgate keys it by instance.

// ackName is how records and events name an acknowledgment.
const ackName = "acknowledge"

// describe is k's body as it is now.
func (f *flow) describe(k chain.AckKey) (response.Described, error) {
	if k.Kind == chain.AckGuidance {
		fr := f.w.Library[k.Subject]
		if fr == nil {
			return response.Described{}, fmt.Errorf("guidance %s is not in the skills: library of %s", k.Subject, f.Chain.File)
		}
		return response.Described{Kind: k.Kind, Subject: k.Subject, Verb: fr.Verb, Hash: fr.Digest, Body: fr.Body}, nil
	}
	sc, err := run.ScriptBySubject(f.Chain, k.Subject, f.Engine.Scripts)
	if err != nil {
		return response.Described{}, err
	}
	return response.Described{Kind: k.Kind, Subject: k.Subject, Verb: sc.Verb, Hash: sc.Hash, Body: sc.Body}, nil
}

// ackFacts are what acknowledgment guards read: the hash each subject
// was last acknowledged at (the caller's --ack included), and its body's
// now.
func (f *flow) ackFacts() *chain.AckFacts {
	acked := map[chain.AckKey]string{}
	for _, rec := range f.history {
		if rec.Ack != nil {
			acked[rec.Ack.AckKey] = rec.Ack.Hash
		}
	}
	for _, d := range f.callerAcks {
		acked[d.Key()] = d.Hash
	}
	return &chain.AckFacts{Acked: acked, Current: func(k chain.AckKey) (string, error) {
		d, err := f.describe(k)
		return d.Hash, err
	}}
}

// acknowledge records that the run acknowledged d's body at the state it
// is at, durably, as decided by by.
func (f *flow) acknowledge(d response.Described, by string) {
	rec := record.TransitionRecord{From: f.state, Transition: ackName, To: f.state, DecidedBy: by, Principal: f.principalID(), Hook: true,
		Ack: &chain.Acknowledgment{AckKey: d.Key(), Hash: d.Hash}, Time: f.Engine.Now()}
	f.Emit(event.Event{Type: event.Acknowledged, State: f.state, Step: ackName, DecidedBy: by, Principal: rec.Principal,
		Detail: fmt.Sprintf("%s %s (%s)", d.Kind, d.Subject, d.Hash)})
	if f.Req.Journal != nil {
		if err := f.Req.Journal.Transition(rec); err != nil {
			f.Warn("saving the acknowledgment of " + d.Kind + " " + d.Subject + ": " + err.Error())
		}
	}
	f.history = append(f.history, rec)
}

// takeAcks reads the caller's --ack subjects before anything runs: each
// must name a script or skill the run can show (an AckError otherwise).
// They count for the --take at once, and are saved when the call drives
// the run (saveAcks), so a refused --take saves nothing.
func (f *flow) takeAcks(subjects []string) error {
	for _, subject := range subjects {
		keys := f.ackKeys(subject)
		if len(keys) == 0 {
			return f.unknownAck(subject)
		}
		for _, k := range keys {
			d, err := f.describe(k)
			if err != nil {
				return &response.AckError{Subject: subject, Msg: err.Error()}
			}
			f.callerAcks = append(f.callerAcks, d)
		}
	}
	return nil
}

// saveAcks records the caller's acknowledgments.
func (f *flow) saveAcks() {
	for _, d := range f.callerAcks {
		f.acknowledge(d, "caller")
	}
	f.callerAcks = nil
}

// ackKeys are what acknowledging subject acknowledges: the kinds the
// workflow's acknowledgment guards ask of it, else its script, else its
// skill (mcp-flowgate's describe looks in the scripts first); none when
// the run has neither.
func (f *flow) ackKeys(subject string) []chain.AckKey {
	var keys []chain.AckKey
	for _, k := range chain.AckSubjectsOf(f.w.Transitions()...) {
		if k.Subject == subject {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		return keys
	}
	for _, kind := range []string{chain.AckScript, chain.AckGuidance} {
		if _, err := f.describe(chain.AckKey{Kind: kind, Subject: subject}); err == nil {
			return []chain.AckKey{{Kind: kind, Subject: subject}}
		}
	}
	return nil
}

// unknownAck is an --ack of a subject the run has no body of.
func (f *flow) unknownAck(subject string) error {
	var asked []string
	for _, k := range chain.AckSubjectsOf(f.w.Transitions()...) {
		if !slices.Contains(asked, k.Subject) {
			asked = append(asked, k.Subject)
		}
	}
	msg := "no script or skill of the run has that subject"
	if len(asked) > 0 {
		msg += "; its acknowledgment guards ask for " + strings.Join(asked, ", ")
	}
	return &response.AckError{Subject: subject, Msg: msg + chain.DidYouMean(subject, append(asked, slices.Sorted(maps.Keys(f.Chain.Scripts))...))}
}

// awaits are the subjects a transition whose guards do not hold waits
// for: those not acknowledged, when its guards would hold were every
// subject acknowledged; none when something else stops it.
func awaits(t *chain.Transition, facts *chain.GuardFacts) []chain.AckKey {
	keys := chain.AckSubjects(t.Guards)
	if len(keys) == 0 || facts == nil || facts.Acks == nil {
		return nil
	}
	assumed := *facts.Acks
	assumed.Assume = true
	alt := *facts
	alt.Acks = &assumed
	if ok, _, err := t.CheckGuards(&alt); !ok || err != nil {
		return nil
	}
	var out []chain.AckKey
	for _, k := range keys {
		if ok, _, _ := facts.Acks.Acknowledged(k); !ok {
			out = append(out, k)
		}
	}
	return out
}

// waiting are the candidates that only wait for acknowledgments.
func waiting(cands []candidate) []candidate {
	var out []candidate
	for _, c := range cands {
		if !c.ok && len(c.awaits) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// waitingLinks offers the transitions that wait for acknowledgments,
// each naming the subjects to acknowledge first.
func waitingLinks(cands []candidate) []response.Link {
	out := make([]response.Link, 0, len(cands))
	for _, c := range cands {
		l := linksOf([]*chain.Transition{c.t})[0]
		for _, k := range c.awaits {
			l.Acknowledge = append(l.Acknowledge, k.Subject)
		}
		out = append(out, l)
	}
	return out
}

// described are the bodies the acknowledgment guards of the state's
// transitions ask for, each marked when the run has acknowledged it.
func (f *flow) described(s *chain.State) []response.Described {
	keys := chain.AckSubjectsOf(s.Transitions...)
	if len(keys) == 0 {
		return nil
	}
	facts := f.ackFacts()
	out := make([]response.Described, 0, len(keys))
	for _, k := range keys {
		d, err := f.describe(k)
		if err != nil {
			continue // the guard says so
		}
		d.Acknowledged = facts.Acked[k] == d.Hash
		out = append(out, d)
	}
	return out
}

// preflightAcks checks, before anything runs, that every script an
// acknowledgment guard names is in a scripts: library, as a script
// executor's must be (pending, as its, in a file with no library).
func preflightAcks(c *chain.Chain, r run.Resolvers) error {
	if c.Workflow == nil {
		return nil
	}
	for _, s := range c.Workflow.States {
		for _, t := range s.Transitions {
			for _, g := range t.AckGuards() {
				if g.Kind != chain.GuardScriptAck {
					continue
				}
				if err := run.FindScript(c, g.Subject, "script_acknowledged", r.Scripts); err != nil {
					pe := &response.PreflightError{Kind: response.BadCall, File: c.File, Pos: g.At("subject"), Who: fmt.Sprintf("state %q: transition %q", s.Name, t.Name), Msg: err.Error()}
					if len(c.Scripts) > 0 {
						return pe
					}
					pe.Kind = response.Pending
					if err := r.Deferred(pe); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
