package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// durableSeam is a durable engine with one run, whose result after a
// take is after, and whose takes it keeps (refusing them with refuse
// when set).
type durableSeam struct {
	seamEngine
	after  *record.Result
	refuse error
	takes  []run.TakeRequest
}

var _ run.Durable = (*durableSeam)(nil)

func (d *durableSeam) Start(context.Context, run.Request) (string, error) { return "r1", nil }
func (d *durableSeam) Wait(context.Context, string, event.Sink) (*record.Result, error) {
	return d.after, nil
}

func (d *durableSeam) Take(_ context.Context, _ string, t run.TakeRequest) error {
	d.takes = append(d.takes, t)
	return d.refuse
}

func (d *durableSeam) Show(context.Context, string) (*record.Result, error) {
	return d.after, nil
}
func (d *durableSeam) Runs(context.Context, int) ([]run.RunInfo, error) { return nil, nil }
func (d *durableSeam) Cancel(context.Context, string) error             { return nil }

// durableCLI runs one command line of a build whose durable engine is d.
func durableCLI(t *testing.T, d *durableSeam, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("CHAINRUN_STATE_DIR", dir+"/state")
	t.Setenv("CHAINRUN_ENGINE", "")
	old := extension
	extension = &Extension{Name: "temporal", Connect: func(context.Context, DurableConfig) (run.Durable, error) { return d, nil }}
	t.Cleanup(func() { extension = old })
	io, _, out, errOut := iostreams.Test()
	f := newFactory(io)
	f.getwd = func() (string, error) { return dir, nil }
	code := execute(context.Background(), f, args)
	return code, out.String(), errOut.String()
}

// TestDurableResume: a plain resume of a durable run is an empty take
// (which retries a failed run); --take, --arg, --ack and --rerun travel
// together; a refused take is exit 2 with nothing followed; the resume
// commands of a pause or a failure are followed by the engine flags they
// need when flags chose the engine.
func TestDurableResume(t *testing.T) {
	failed := &record.Result{RunID: "r1", Name: "w", Status: record.Failed, Error: "transition go failed",
		WorkflowResult: &response.WorkflowResult{State: "a", Links: []response.Link{{Transition: "go", Title: "Retry: Go"}}}}
	done := &record.Result{RunID: "r1", Name: "w", Status: record.Succeeded, Output: "ok"}
	paused := &record.Result{RunID: "r1", Name: "w", Status: record.Paused,
		WorkflowResult: &response.WorkflowResult{State: "s", Links: []response.Link{{Transition: "go", Title: "Go"}}}}
	for _, tc := range []struct {
		name   string
		seam   durableSeam
		args   []string
		code   int
		takes  string
		stderr string
	}{
		{"a plain resume is an empty take (the engine retries a failed run)", durableSeam{after: done}, nil, exitOK, "[{ map[] [] []}]", ""},
		{"a pause names the flags its commands need", durableSeam{after: paused}, nil, exitPaused, "[{ map[] [] []}]", "--engine temporal"},
		{"a take carries its arguments, acks and reruns", durableSeam{after: done},
			[]string{"--take", "go", "--arg", "n=2", "--ack", "deploy.x", "--rerun", "go"}, exitOK, "[{go map[n:2] [deploy.x] [go]}]", ""},
		{"a refused take is exit 2", durableSeam{after: done, refuse: &usageError{errors.New("--take go: argument \"n\": not an integer")}},
			[]string{"--take", "go", "--arg", "n=x"}, exitUsage, "[{go map[n:x] [] []}]", "not an integer"},
		{"a failed result names the flags its retry needs", durableSeam{after: failed},
			[]string{"--take", "go", "--task-queue", "q7"}, exitFailed, "[{go map[] [] []}]", "--engine temporal --task-queue q7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.seam
			code, _, errOut := durableCLI(t, &d, append([]string{"resume", "r1", "--engine", "temporal", "-q"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			if got := fmt.Sprint(d.takes); got != tc.takes {
				t.Errorf("takes %s, want %s", got, tc.takes)
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q, want it to say %q", errOut, tc.stderr)
			}
		})
	}
}
