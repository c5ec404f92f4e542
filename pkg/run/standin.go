package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/executor"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// Canned is what a stand-in says a step's body produced, in place of
// running it: a chain test's mock of a command, a request or a file.
type Canned struct {
	// Output is the step's output (a command's stdout, a response body,
	// a file's content); Data, when set, is the output as data instead.
	Output string
	Data   any
	// ExitCode, when not 0, makes a cli step's command exit with it: a
	// failure unless the step sets treatNonZeroAsFailure: false.
	ExitCode int
	Stderr   string
	// Status is an http step's status code.
	Status int
	// Err, when set, fails the body with this message.
	Err string
}

// StandIn decides whether a step's body runs: ok true replaces this one
// execution of the body by the canned result (each attempt asks again,
// so a stand-in can fail the first and pass the second). Steps run in
// parallel: it must be safe for concurrent use.
type StandIn func(ctx context.Context, s *chain.Step) (c Canned, ok bool)

// WithStandIn lets f replace step bodies (chainrun test's mocks, and its
// refusal of unmocked network steps).
func WithStandIn(f StandIn) Option { return func(l *Local) { l.StandIn = f } }

// WithEnv adds variables to the environment of every command the run
// starts (cli steps, pre_tools, MCP servers): values a test fixes. They
// replace the process's own of the same name; a step's env: still wins.
func WithEnv(env map[string]string) Option { return func(l *Local) { l.env = env } }

// canned is the outcome a stand-in's result stands for.
func CannedOutcome(s *chain.Step, c Canned) (outcome, error) {
	out := outcome{Value: interp.TextValue(strings.TrimSpace(c.Output)), stderr: c.Stderr, stdout: c.Output, status: c.Status}
	if c.Data != nil {
		out.Value = interp.DataValue(c.Data)
	}
	var err error
	switch {
	case c.Err != "":
		err = errors.New(c.Err)
	case c.ExitCode != 0:
		err = &executor.ExitError{Code: c.ExitCode, Stderr: c.Stderr}
	}
	if s.Kind == chain.KindCLI {
		return exitValue(s, out, err)
	}
	if err == nil && c.Status != 0 && chain.StatusFails(s, c.Status) {
		// as a real response with that status would
		err = fmt.Errorf("HTTP %d (mocked; %s): %s", c.Status, web.AcceptHint(s), strings.TrimSpace(c.Output))
	}
	return out, err
}

// environ is the environment a command starts from: this process's,
// with the run's fixed variables (WithEnv) in place of their namesakes.
func (l *Local) environ() []string {
	base := os.Environ()
	if len(l.env) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(l.env))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, fixed := l.env[k]; !fixed {
			out = append(out, kv)
		}
	}
	for k, v := range l.env {
		out = append(out, k+"="+v)
	}
	return out
}

// lookupEnv reads a variable of environ.
func (l *Local) lookupEnv(k string) (string, bool) {
	if v, ok := l.env[k]; ok {
		return v, true
	}
	return os.LookupEnv(k)
}

// loopOrStandIn runs a for_each step's items, unless a stand-in gives
// the step's whole output at once (a test mocks a loop as one step).
func (x *Execution) loopOrStandIn(ctx context.Context, s *chain.Step, sc Scope) (outcome, int, error) {
	if x.Engine.StandIn != nil {
		if c, ok := x.Engine.StandIn(ctx, s); ok {
			out, err := CannedOutcome(s, c)
			return out, 1, err
		}
	}
	return x.loop(ctx, s, sc)
}

// pathEnv is PATH as the run's commands see it.
func (x *Execution) pathEnv() string {
	v, _ := x.getenv("PATH")
	return v
}
