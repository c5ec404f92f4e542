package cassette

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/llm"
)

// Answer is one scripted reply to a step's model request: text, tool
// calls, or an error the provider would have returned.
type Answer struct {
	Text      string
	ToolCalls []ToolCall
	Usage     Usage
	// Status, when set, answers with an API error of that HTTP status:
	// transient (retried, then the fallback model) for 408, 409, 425,
	// 429 and 5xx, as a real provider's would be.
	Status     int
	Message    string
	RetryAfter time.Duration
}

// Script holds scripted answers by step, each step's given in order; the
// last one answers again once the list is used up.
type Script struct {
	mu    sync.Mutex
	steps map[string][]Answer
	next  map[string]int
}

// NewScript scripts steps' answers (nil or empty: none).
func NewScript(steps map[string][]Answer) *Script {
	return &Script{steps: steps, next: map[string]int{}}
}

// Has reports whether step has scripted answers.
func (s *Script) Has(step string) bool {
	return s != nil && len(s.steps[step]) > 0
}

// answer is step's next scripted answer, ok false when it has none.
func (s *Script) answer(step, provider string) (*llm.Response, error, bool) {
	if !s.Has(step) {
		return nil, nil, false
	}
	s.mu.Lock()
	as := s.steps[step]
	a := as[min(s.next[step], len(as)-1)]
	s.next[step]++
	s.mu.Unlock()
	if a.Status != 0 && a.Status != http.StatusOK {
		msg := a.Message
		if msg == "" {
			msg = http.StatusText(a.Status)
		}
		return nil, &llm.Error{Provider: provider, Status: a.Status, Transient: llm.TransientStatus(a.Status), RetryAfter: a.RetryAfter,
			Message: fmt.Sprintf("%s (scripted)", msg)}, true
	}
	resp := Response{Text: a.Text, ToolCalls: a.ToolCalls, Usage: a.Usage}.Answer()
	resp.Model = "scripted"
	return resp, nil, true
}
