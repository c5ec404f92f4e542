package cassette

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/redact"
)

// Mode says what a session does about a request with no recording.
type Mode string

// The recording modes of --record.
const (
	// ModeNone plays back only: a miss fails the step (CI's default).
	ModeNone Mode = "none"
	// ModeMissing asks the live model on a miss and records its answer.
	ModeMissing Mode = "missing"
	// ModeAll asks the live model for every request and replaces the
	// case's recordings.
	ModeAll Mode = "all"
	// ModeLive asks the live model for every request and records nothing:
	// a case's answers are fresh each time it runs (chainrun test --live
	// --repeat N). A case's scripted answers still come first.
	ModeLive Mode = "live"
)

// ParseMode reads a --record value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeNone, ModeMissing, ModeAll:
		return m, nil
	}
	return "", fmt.Errorf("%q is not a recording mode: none, missing or all", s)
}

// Models resolves model names the way the run's configuration does: the
// provider a name belongs to without needing its key (Split), and the
// live provider when a recording is made (Target). *llm.Registry is one.
type Models interface {
	Split(model string) (provider, name string, err error)
	Target(model string) (llm.Target, error)
}

// Secret is a value that must never be written to a cassette, and what
// to call it when one would be.
type Secret struct {
	Name, Value string
}

// Session is one test case's use of a cassette: it is the case's model
// providers (its Target satisfies the engine's Models).
type Session struct {
	c      *Cassette
	name   string
	mode   Mode
	models Models
	// secrets grow while the case runs (AddSecrets), under secMu.
	secMu   sync.Mutex
	secrets []Secret
	// script answers a step's requests before the cassette is asked.
	script *Script

	mu     sync.Mutex
	asked  map[string]int // requests made, by step
	played map[string]int // times each (step, key) was answered
	misses []*Miss
}

// NewSession starts case name's use of c. secrets are refused at write
// time; script, when set, answers its steps' requests first.
func NewSession(c *Cassette, name string, mode Mode, models Models, secrets []Secret, script *Script) *Session {
	if mode == ModeAll {
		c.forget(name)
	}
	return &Session{c: c, name: name, mode: mode, models: models, secrets: slices.Clone(secrets), script: script,
		asked: map[string]int{}, played: map[string]int{}}
}

// Misses are the requests this session found no recording for (in
// ModeNone), or could not record.
func (s *Session) Misses() []*Miss {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Miss(nil), s.misses...)
}

// Target is the provider of model for this case: recorded answers, the
// script, or (when recording) the live model.
func (s *Session) Target(model string) (llm.Target, error) {
	pname, name, err := s.models.Split(model)
	if err != nil {
		return llm.Target{}, err
	}
	t := llm.Target{Provider: &player{s: s, provider: pname, model: model}, Model: name}
	if a, ok := s.models.(interface{ AliasParams(string) llm.Params }); ok {
		t.Params = a.AliasParams(model) // recorded with the request, as sent
	}
	return t, nil
}

// player is one provider as a session plays it.
type player struct {
	s        *Session
	provider string
	// model is the name as the chain wrote it, for the live provider.
	model string
}

func (p *player) Name() string { return p.provider }

// Complete answers from the script, then the cassette, then (recording)
// the live model.
func (p *player) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	s := p.s
	step := llm.Caller(ctx)
	rec := NewRequest(p.provider, req)
	seq := s.next(step)
	if resp, err, ok := s.script.answer(step, p.provider); ok {
		return deliver(req, resp), err
	}
	var fresh *llm.Response
	r, err := s.replay(ctx, step, seq, rec, func(ctx context.Context) (Response, error) {
		resp, err := p.live(ctx, req)
		if err != nil {
			return Response{}, err
		}
		fresh = resp
		return NewResponse(resp), nil
	})
	switch {
	case err != nil:
		return nil, err
	case fresh != nil:
		return fresh, nil
	}
	return deliver(req, r.Answer()), nil
}

// next counts a request of step and returns its place among them.
func (s *Session) next(step string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked[step]++
	return s.asked[step]
}

// replay answers rec, step's seq-th request: from its recording, else (in
// ModeNone) a miss, else from live, whose answer it records.
func (s *Session) replay(ctx context.Context, step string, seq int, rec Request, live func(context.Context) (Response, error)) (Response, error) {
	if s.mode == ModeLive {
		return live(ctx) // a live run: nothing is recorded
	}
	if s.mode != ModeAll {
		if r := s.lookup(step, rec.Key()); r != nil {
			return r.Response, nil
		}
	}
	if s.mode == ModeNone {
		m := s.miss(step, rec)
		return Response{}, &llm.Error{Provider: rec.Provider, Message: m.Error()}
	}
	resp, err := live(ctx)
	if err != nil {
		return Response{}, err
	}
	r := &Recording{Case: s.name, Step: step, Seq: seq, Request: rec, Response: resp}
	if err := s.refuseSecrets(r); err != nil {
		s.mu.Lock()
		s.misses = append(s.misses, &Miss{Step: step, Case: s.name, Request: rec, refused: err})
		s.mu.Unlock()
		return Response{}, &llm.Error{Provider: rec.Provider, Message: err.Error()}
	}
	s.c.add(r)
	return resp, nil
}

// live asks the configured provider, for a recording or a live run.
func (p *player) live(ctx context.Context, req llm.Request) (*llm.Response, error) {
	t, err := p.s.models.Target(p.model)
	if err != nil {
		need := "recording"
		if p.s.mode == ModeLive {
			need = "a live run"
		}
		return nil, &llm.Error{Provider: p.provider, Message: need + " needs the live model: " + err.Error()}
	}
	req.OnDelta = nil
	return t.Provider.Complete(ctx, req)
}

// lookup finds the recording of step's request with this key: the
// case's own first, then another case's (the same request has the same
// answer), the n-th time asked getting the n-th recording and the last
// one after that.
func (s *Session) lookup(step, key string) *Recording {
	c := s.c
	c.mu.Lock()
	defer c.mu.Unlock()
	var own, other []*Recording
	for _, r := range c.recs {
		if r.key != key || r.Step != step {
			continue
		}
		if r.Case == s.name {
			own = append(own, r)
		} else {
			other = append(other, r)
		}
	}
	found := own
	if len(found) == 0 {
		found = other
	}
	if len(found) == 0 {
		return nil
	}
	s.mu.Lock()
	n := s.played[step+"\x00"+key]
	s.played[step+"\x00"+key]++
	s.mu.Unlock()
	r := found[min(n, len(found)-1)]
	c.used[r] = true
	return r
}

// deliver hands an answer over as the provider would: streamed to
// OnDelta when the request asked for a stream.
func deliver(req llm.Request, resp *llm.Response) *llm.Response {
	if resp != nil && req.OnDelta != nil && resp.Text != "" {
		req.OnDelta(resp.Text)
	}
	return resp
}

// AddSecrets adds values the session must refuse to record from now on:
// those a run learns as it goes (the dotenv files of its chain and of the
// chains it calls).
func (s *Session) AddSecrets(more ...Secret) {
	s.secMu.Lock()
	defer s.secMu.Unlock()
	for _, sec := range more {
		if !slices.Contains(s.secrets, sec) {
			s.secrets = append(s.secrets, sec)
		}
	}
}

// Secrets are the values the session refuses to record, for whoever
// reports on the case (to mask them).
func (s *Session) Secrets() []Secret {
	s.secMu.Lock()
	defer s.secMu.Unlock()
	return slices.Clone(s.secrets)
}

// refuseSecrets fails a recording that would write a secret value, or
// text shaped like a credential whatever brought it (shapes.go).
func (s *Session) refuseSecrets(r *Recording) error {
	text := fmt.Sprintf("%+v", *r)
	for _, sec := range s.Secrets() {
		for _, form := range refusable(sec.Value) {
			if strings.Contains(text, form) {
				return fmt.Errorf("refusing to record step %s's model request: it holds the value of %s, which must never be written to %s", r.Step, sec.Name, s.c.Path)
			}
		}
	}
	if kind := credentialIn(text); kind != "" {
		return fmt.Errorf("refusing to record step %s's model request: it holds what looks like %s, which must never be written to %s", r.Step, kind, s.c.Path)
	}
	return nil
}

// refusable are a secret's forms long enough to look for: one under 4
// characters would match anywhere.
func refusable(v string) []string {
	var out []string
	for _, f := range redact.SecretForms(v) {
		if len(f) >= 4 && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
