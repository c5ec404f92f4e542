package guardexpr

import (
	"fmt"
	"slices"
)

// An acknowledgment guard (mcp-flowgate's guidance_acknowledged and
// script_acknowledged) holds once the run has acknowledged a subject's
// body as that body is now: a skill of the file's skills: library, or a
// script. It makes a transition wait until whoever decides was shown what
// it is about to rely on or run (a rubric, a deploy script). The guard
// proves the body was fetched, not that it was understood; an edited body
// (its hash changed) asks for a new acknowledgment.

// Acknowledgment kinds: what a subject is. A skill's and a script's
// acknowledgments are kept apart, so acknowledging one never satisfies
// a guard on the other (as in mcp-flowgate).
const (
	AckGuidance = "guidance"
	AckScript   = "script"
)

// AckKey names a subject an acknowledgment guard asks for.
type AckKey struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject"`
}

// String is how messages name the subject: "script deploy.rollout".
func (k AckKey) String() string { return k.Kind + " " + k.Subject }

// AckOf is the subject an acknowledgment guard asks for.
func AckOf(g *Guard) AckKey {
	if g.Kind == GuardScriptAck {
		return AckKey{Kind: AckScript, Subject: g.Subject}
	}
	return AckKey{Kind: AckGuidance, Subject: g.Subject}
}

// Acknowledgment is a subject's body acknowledged in a run, with the hash
// the body had then: the guard holds while the body still has it.
type Acknowledgment struct {
	AckKey
	Hash string `json:"hash"`
}

// AckFacts are what acknowledgment guards read: the hash each subject was
// last acknowledged at, and the hash of its body now.
type AckFacts struct {
	Acked   map[AckKey]string
	Current func(AckKey) (string, error)
	// Assume makes every acknowledgment guard hold: a transition whose
	// guards hold then waits only for acknowledgments.
	Assume bool
}

// holds checks one acknowledgment guard.
func (a *AckFacts) holds(k AckKey) (bool, string, error) {
	if a != nil && a.Assume {
		return true, "", nil
	}
	return a.Acknowledged(k)
}

// Acknowledged reports whether the run acknowledged k's body as it is
// now; why says what is missing when it did not.
func (a *AckFacts) Acknowledged(k AckKey) (ok bool, why string, err error) {
	var got string
	if a != nil {
		got, ok = a.Acked[k]
	}
	if !ok {
		return false, fmt.Sprintf("%s has not been acknowledged in this run: read its body first (the describe tool of a deciding model, or resume --ack %s)", k, k.Subject), nil
	}
	now, err := a.Current(k)
	if err != nil {
		return false, "", err
	}
	if got != now {
		return false, fmt.Sprintf("%s was acknowledged at %s, and its body is now %s: read it again", k, got, now), nil
	}
	return true, "", nil
}

// AckSubjects lists, once each and in order, the subjects the
// acknowledgment guards among guards ask for, nested ones included.
func AckSubjects(guards []*Guard) []AckKey {
	var out []AckKey
	WalkAcks(guards, "guards", func(g *Guard, _ string) {
		if k := AckOf(g); !slices.Contains(out, k) {
			out = append(out, k)
		}
	})
	return out
}

// WalkAcks calls fn with every acknowledgment guard among guards and its
// place (guards[2].guards[1], as load errors name it).
func WalkAcks(guards []*Guard, path string, fn func(g *Guard, path string)) {
	for i, g := range guards {
		WalkAck(g, fmt.Sprintf("%s[%d]", path, i+1), fn)
	}
}

// WalkAck calls fn with g, written at at, if it is an acknowledgment
// guard, or with those nested in it.
func WalkAck(g *Guard, at string, fn func(g *Guard, path string)) {
	switch {
	case g == nil:
	case g.Kind == GuardGuidanceAck || g.Kind == GuardScriptAck:
		fn(g, at)
	case g.Inner != nil:
		WalkAck(g.Inner, at+".guard", fn)
	default:
		WalkAcks(g.Guards, at+".guards", fn)
	}
}
