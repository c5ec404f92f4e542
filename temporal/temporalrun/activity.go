package temporalrun

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// payloadLimit is Temporal's limit of one payload (2 MB), less room for
// the rest of the message.
const payloadLimit = 2<<20 - 64<<10

// Steps is the step activity: a worker's engine (its models, keys,
// cache, directory) runs the step it is given.
type Steps struct {
	Engine run.TaskRunner
	// Parse reads a chain file as the worker's configuration reads them
	// (its connections); nil: chain.Parse with the task's options.
	Parse func(file string, src []byte) (*chain.Loaded, error)

	mu     sync.Mutex
	chains map[[32]byte]*chain.Chain
}

// Run runs one step. A failed step is a result, not an error: only an
// attempt that Temporal should make again (a step whose retries it
// makes) returns an error, with the attempt's outcome as its details.
func (s *Steps) Run(ctx context.Context, t Task) (task.StepDone, error) {
	c, err := s.chainOf(t)
	if err != nil {
		return task.StepDone{}, temporal.NewNonRetryableApplicationError(err.Error(), "ChainError", nil)
	}
	info := activity.GetInfo(ctx)
	if t.EngineRetries {
		t.Step.Attempt = int(info.Attempt)
	}
	stop := func() {}
	if !info.IsLocalActivity {
		stop = heartbeat(ctx, info.HeartbeatTimeout)
	}
	done := s.Engine.RunTask(ctx, c, t.Step)
	stop()
	if b, err := json.Marshal(done); err == nil && len(b) > payloadLimit {
		done = task.StepDone{Result: record.StepResult{ID: t.Step.Step, Status: record.StepFailed, Attempts: done.Result.Attempts,
			Error: fmt.Sprintf("its result is %d bytes, more than a Temporal payload holds (2 MB): write big outputs to files", len(b))}}
	}
	if done.Retry {
		return done, temporal.NewApplicationError("attempt failed: "+done.Result.Error, "StepAttempt", done)
	}
	return done, nil
}

// chainOf reads the task's chain, once per file text.
func (s *Steps) chainOf(t Task) (*chain.Chain, error) {
	key := sha256.Sum256(append([]byte(t.File+"\x00"+t.Name+"\x00"+fmt.Sprint(t.Lenient)+"\x00"), t.Source...))
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.chains[key]; ok {
		return c, nil
	}
	var loaded *chain.Loaded
	var err error
	if s.Parse != nil {
		loaded, err = s.Parse(t.File, t.Source)
	} else {
		loaded, err = load.Parse(t.File, t.Source, chain.Options{LenientVariables: t.Lenient})
	}
	if err != nil {
		return nil, err
	}
	c := loaded.Named(t.Name)
	if c == nil {
		c = loaded.Chain
	}
	if s.chains == nil || len(s.chains) > 64 {
		s.chains = map[[32]byte]*chain.Chain{}
	}
	s.chains[key] = c
	return c, nil
}

// heartbeat tells Temporal, while a step runs, that its worker lives:
// a worker that dies is noticed within the heartbeat timeout and the
// step given to another; a cancelled run reaches the step through it.
func heartbeat(ctx context.Context, timeout time.Duration) (stop func()) {
	every := max(timeout/4, 100*time.Millisecond)
	quit := make(chan struct{})
	over := make(chan struct{})
	go func() {
		defer close(over)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			activity.RecordHeartbeat(ctx)
			select {
			case <-quit:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(quit)
		<-over
	}
}
