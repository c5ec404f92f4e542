package tracefeed

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/tracectx"
)

// Companion is the program that exports the spans.
const Companion = "chainrun-otel"

// FlushTimeout bounds what exporting costs a command at its exit: the
// companion sends what is left within it, and is stopped a little after.
const FlushTimeout = 5 * time.Second

// queued is how many lines may wait for the companion: a run never waits
// for it; past this, lines are dropped (and said once).
const queued = 8192

// Feed is this process's feed to chainrun-otel: one companion for every
// run of the process (a run, a resume, or chainrun mcp's many).
type Feed struct {
	settings Settings
	warn     io.Writer
	cmd      *exec.Cmd
	lines    chan []byte
	written  chan struct{}
	dropped  atomic.Int64

	mu   sync.Mutex
	next int
	open map[int]*Run
	shut bool
}

// Open starts export as the flag, config and environment ask (Resolve),
// or returns nil when nothing asks. err is a flag or config value that
// cannot be used: the command stops (exit 2) before anything runs. A
// problem of the OTEL_* variables, or a companion that cannot be found
// or started, is said once on warn and the command goes on untraced:
// export never fails a run.
func Open(c Choice, getenv func(string) string, version string, warn io.Writer) (*Feed, error) {
	s, ok, problem, err := Resolve(c, getenv)
	if err != nil {
		return nil, err
	}
	if problem != "" {
		fmt.Fprintf(warn, "chainrun: %s\n", problem)
	}
	if !ok {
		return nil, nil
	}
	bin, err := companion(getenv)
	if err != nil {
		fmt.Fprintf(warn, "chainrun: traces are not exported: %v\n", err)
		return nil, nil
	}
	f := &Feed{settings: s, warn: warn, lines: make(chan []byte, queued), written: make(chan struct{}), open: map[int]*Run{}}
	f.cmd = exec.Command(bin)
	f.cmd.Stdout, f.cmd.Stderr = warn, warn // it says on stderr what failed, once
	stdin, err := f.cmd.StdinPipe()
	if err == nil {
		err = f.cmd.Start()
	}
	if err != nil {
		fmt.Fprintf(warn, "chainrun: traces are not exported: %s: %v\n", bin, err)
		return nil, nil
	}
	hello, _ := json.Marshal(Hello{Settings: s, Version: version})
	f.lines <- hello
	go f.write(stdin)
	return f, nil
}

// companion finds chainrun-otel: CHAINRUN_OTEL_BIN, else next to this
// executable (as a release installs them), else on PATH.
func companion(getenv func(string) string) (string, error) {
	if p := getenv("CHAINRUN_OTEL_BIN"); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), Companion)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(Companion); err == nil {
		return p, nil
	}
	return "", errors.New(Companion + " was found neither next to chainrun nor on PATH (it comes in chainrun's release archives; from source: go install github.com/chainrun/chainrun/cmd/chainrun-otel@latest)")
}

// write sends the queued lines to the companion, buffered, flushing
// whenever the queue runs dry.
func (f *Feed) write(stdin io.WriteCloser) {
	defer close(f.written)
	w := bufio.NewWriterSize(stdin, 64<<10)
	broken := false
	for line := range f.lines {
		if !broken {
			_, err := w.Write(append(line, '\n'))
			if err == nil && len(f.lines) == 0 {
				err = w.Flush()
			}
			broken = err != nil // the companion is gone: drain, send nothing
		}
	}
	if !broken {
		_ = w.Flush()
	}
	_ = stdin.Close()
}

// send queues one line, never waiting: a full queue drops it.
func (f *Feed) send(l Line) {
	b, err := json.Marshal(l)
	if err != nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shut {
		return
	}
	select {
	case f.lines <- b:
	default:
		f.dropped.Add(1)
	}
}

// Run feeds one run's events; it is an event.Sink.
type Run struct {
	f      *Feed
	id     int
	tc     tracectx.Context
	served bool
}

// NewRun begins the trace of one run: a child of parent (TRACEPARENT, an
// MCP client's request) when it is valid, else a trace of its own, linked
// to the run's earlier attempts. A served run (chainrun mcp) ends with its
// run.finished rather than with the process. A nil Feed gives nil.
func (f *Feed) NewRun(parent tracectx.Context, earlier []string, served bool) *Run {
	if f == nil {
		return nil
	}
	tc := tracectx.NewTrace()
	if parent.IsValid() {
		tc = tracectx.Context{Trace: parent.Trace, Sampled: parent.Sampled, State: parent.State}
	}
	tc.Span = tracectx.RunSpan(tc.Trace)
	f.mu.Lock()
	f.next++
	r := &Run{f: f, id: f.next, tc: tc, served: served}
	if !served {
		f.open[r.id] = r
	}
	f.mu.Unlock()
	o := &Opening{Trace: tc.Traceparent(), State: tc.State, Earlier: earlier, Served: served}
	if parent.IsValid() {
		o.Parent = parent.Traceparent()
	}
	f.send(Line{Run: r.id, Open: o})
	return r
}

// Context is the run's place in its trace, for the run's request: its
// trace id and its span's id. Zero for a nil Run.
func (r *Run) Context() tracectx.Context {
	if r == nil {
		return tracectx.Context{}
	}
	return r.tc
}

// CaptureContent says the run's model spans carry prompts and answers
// (otel.capture_content), which the engine then puts on its events.
func (r *Run) CaptureContent() bool { return r != nil && r.f.settings.CaptureContent }

// Emit feeds an event, but for those no span needs (a --verbose run's
// log lines above all).
func (r *Run) Emit(e event.Event) {
	switch e.Type {
	case event.StepLog, event.LLMDelta, event.StepStreamed, event.StepSaved, event.StepBegun, event.StepProcess, event.TransitionSaved:
		return
	}
	r.f.send(Line{Run: r.id, Event: &e})
}

// Close ends the runs still open with the command's exit code, lets the
// companion send what is left (within FlushTimeout) and waits for it. It
// never fails the command; a nil Feed (export off) does nothing.
func (f *Feed) Close(exitCode int) {
	if f == nil {
		return
	}
	f.mu.Lock()
	open := f.open
	f.open = map[int]*Run{}
	f.mu.Unlock()
	for id := range open {
		code := exitCode
		f.send(Line{Run: id, End: &code})
	}
	f.mu.Lock()
	f.shut = true
	close(f.lines)
	f.mu.Unlock()
	<-f.written
	done := make(chan error, 1)
	go func() { done <- f.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(FlushTimeout + 2*time.Second):
		_ = f.cmd.Process.Kill()
		<-done
		fmt.Fprintf(f.warn, "chainrun: %s did not finish sending traces within %s; stopped\n", Companion, FlushTimeout)
	}
	if n := f.dropped.Load(); n > 0 {
		fmt.Fprintf(f.warn, "chainrun: %d events were not traced (%s fell behind)\n", n, Companion)
	}
}

// ParentFromEnv is the trace chainrun was started in: TRACEPARENT and
// TRACESTATE, which CI systems and OpenTelemetry's environment carriers
// set. A malformed one is no parent: the run starts a trace of its own.
func ParentFromEnv(getenv func(string) string) tracectx.Context {
	c, _ := tracectx.Parse(getenv("TRACEPARENT"), getenv("TRACESTATE"))
	return c
}
