package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// active is a run this server is driving: it runs under the server's
// context, not the call's, so it goes on when the call returns or the
// client stops waiting. It is the run's event sink: it learns the run's
// id from the first event, and keeps where the run stands.
type active struct {
	s      *Server
	name   string
	stop   context.CancelFunc
	known  chan struct{} // closed once the id is known
	done   chan struct{} // closed once the run returned
	res    *record.Result
	err    error
	idOnce sync.Once

	mu    sync.Mutex
	id    string
	state string
	trace []response.ChainEntry
	n     int
	// notes, while a call waits with a progress token, receives a line
	// per step and transition.
	notes chan note
}

// note is one progress notification.
type note struct {
	n   int
	msg string
}

var _ event.Sink = (*active)(nil)

// Emit implements event.Sink. It never blocks: a note the waiting call
// has no room for is dropped.
func (a *active) Emit(e event.Event) {
	if e.RunID != "" {
		a.idOnce.Do(func() {
			a.mu.Lock()
			a.id = e.RunID
			a.mu.Unlock()
			a.s.track(e.RunID, a)
			close(a.known)
		})
	}
	msg := progressText(e)
	if msg == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if e.Type == event.Transition {
		a.state = e.Target
		a.trace = append(a.trace, response.ChainEntry{FromState: e.State, Transition: e.Step, ToState: e.Target, DecidedBy: e.DecidedBy})
	}
	a.n++
	if a.notes != nil {
		select {
		case a.notes <- note{a.n, msg}:
		default:
		}
	}
}

// progressText is the progress note of an event, "" for none.
func progressText(e event.Event) string {
	switch e.Type {
	case event.StepFinished:
		return fmt.Sprintf("step %s %s", e.Step, e.Status)
	case event.Transition:
		return fmt.Sprintf("%s → %s (%s)", e.State, e.Target, e.Step)
	case event.Decision:
		if e.Status == record.Paused {
			return "paused at " + e.State
		}
	}
	return ""
}

func (a *active) runID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.id
}

// listen sends progress notes to ch (nil: to nobody).
func (a *active) listen(ch chan note) {
	a.mu.Lock()
	a.notes = ch
	a.mu.Unlock()
}

// launch starts fn as a run of chain name under the server's context.
func (s *Server) launch(name string, fn func(context.Context, event.Sink) (*record.Result, error)) *active {
	ctx, stop := context.WithCancel(s.base)
	a := &active{s: s, name: name, stop: stop, known: make(chan struct{}), done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer stop()
		res, err := fn(ctx, a)
		a.mu.Lock()
		a.res, a.err = res, err
		if res != nil && a.id == "" {
			a.id = res.RunID
		}
		id := a.id
		a.mu.Unlock()
		s.untrack(id, a)
		close(a.done)
	}()
	return a
}

func (s *Server) track(id string, a *active) {
	s.mu.Lock()
	s.active[id] = a
	s.mu.Unlock()
}

func (s *Server) untrack(id string, a *active) {
	s.mu.Lock()
	if s.active[id] == a {
		delete(s.active, id)
	}
	s.mu.Unlock()
}

// running is the run of that id this server drives, or nil.
func (s *Server) running(id string) *active {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active[id]
}

// await waits for a run's answer: its end (or a pause), the soft
// deadline, or the client giving up, sending progress notes meanwhile
// when the call asked for them. A run that could not start answers
// refusal(err).
func (s *Server) await(ctx context.Context, req *mcp.CallToolRequest, a *active, refusal func(error) Response) Response {
	var notes chan note
	token := req.Params.GetProgressToken()
	if token != nil && req.Session != nil {
		notes = make(chan note, 64)
		a.listen(notes)
		defer a.listen(nil)
	}
	deadline := time.NewTimer(s.opts.Wait)
	defer deadline.Stop()
	var known chan struct{} // the deadline passed before the id was known
	for {
		select {
		case <-a.done:
			for len(notes) > 0 { // what the run said before it ended
				s.notify(ctx, req, token, <-notes)
			}
			return s.finished(a, refusal)
		case n := <-notes:
			s.notify(ctx, req, token, n)
		case <-deadline.C:
			known = a.known
		case <-known:
			return s.progress(a)
		case <-ctx.Done():
			return s.progress(a) // nobody reads it; the run goes on
		}
	}
}

// notify sends one progress notification; a failure to send is no
// failure of the run.
func (s *Server) notify(ctx context.Context, req *mcp.CallToolRequest, token any, n note) {
	_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n.n), Message: n.msg})
}

// finished is the answer of a run that returned.
func (s *Server) finished(a *active, refusal func(error) Response) Response {
	if a.err != nil {
		return refusal(a.err)
	}
	return fromResult(a.res, s.version(a.res.RunID))
}

// version is how far run id has moved, as saved (0 when it is not).
func (s *Server) version(id string) int {
	sv, err := s.b.Get(id)
	if err != nil {
		return 0
	}
	return sv.Version
}

// progress is the answer of a run still going: where it is, what this
// call saw it take, and the links to look again or stop it.
func (s *Server) progress(a *active) Response {
	a.mu.Lock()
	id, state, trace := a.id, a.state, append([]response.ChainEntry{}, a.trace...)
	a.mu.Unlock()
	r := Response{RunID: id, Status: Running, Name: a.name, State: state, Chain: trace,
		Links: []Link{getLink(id), {Title: "Stop the run", Tool: toolCancel, Arguments: map[string]any{"run_id": id}}}}
	if id != "" {
		r.Version = s.version(id)
	}
	return r
}
