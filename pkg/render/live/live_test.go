package live

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/live/livetest"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// ev is an event of run id "r" at t0 plus ms milliseconds.
func ev(ms int, typ event.Type, step string, set func(*event.Event)) event.Event {
	e := event.Event{RunID: "r", Type: typ, Step: step, Time: t0.Add(time.Duration(ms) * time.Millisecond)}
	if set != nil {
		set(&e)
	}
	return e
}

// kinds lists what the changes do, as short words, with their lines.
func kinds(cs []change) []string {
	var out []string
	for _, c := range cs {
		switch c.kind {
		case showLine:
			out = append(out, "line "+c.line)
		case startRow:
			out = append(out, "start "+c.row.name)
		case finishRow:
			out = append(out, "finish "+c.row.finalLine())
		case endRun:
			out = append(out, "end "+c.line)
		}
	}
	return out
}

func TestBoardApply(t *testing.T) {
	tests := []struct {
		name   string
		events []event.Event
		want   []string
	}{{
		name: "steps start, finish and end the run",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }),
			ev(1, event.StepStarted, "a", nil),
			ev(2, event.StepAttempt, "a", func(e *event.Event) { e.Attempt = 1 }),
			ev(3, event.StepLog, "a", func(e *event.Event) { e.Line = "hidden" }),
			ev(900, event.StepFinished, "a", func(e *event.Event) { e.Status = "succeeded"; e.DurationMS = 899 }),
			ev(950, event.RunFinished, "", func(e *event.Event) { e.Chain = "demo"; e.Status = "succeeded"; e.DurationMS = 950 }),
		},
		want: []string{"line run demo (r)", "start a", "finish ✓ a 899ms", "end demo succeeded in 950ms"},
	}, {
		name: "a failure shows the first line of its error",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }),
			ev(1, event.StepStarted, "b", nil),
			ev(2, event.StepFinished, "b", func(e *event.Event) {
				e.Status, e.Error, e.DurationMS = "failed", "exit status 3\nline two\nline three", 1
			}),
		},
		want: []string{"line run demo (r)", "start b", "finish ✗ b 1ms: exit status 3 …"},
	}, {
		name: "steps that never ran are lines, not bars",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }),
			ev(1, event.StepFinished, "c", func(e *event.Event) { e.Status, e.Detail = "skipped", "not run: step b failed" }),
			ev(2, event.StepFinished, "d", func(e *event.Event) { e.Status, e.DurationMS = "cached", 4 }),
			ev(3, event.StepFinished, "e", func(e *event.Event) { e.Status, e.Detail = "succeeded", "reused from the saved run" }),
		},
		want: []string{"line run demo (r)", "line ⊘ c skipped: not run: step b failed", "line ↺ d 4ms cached", "line = e succeeded (kept from the saved run)"},
	}, {
		name: "a step waiting for a slot has its row from then on, and keeps it when it starts or is skipped",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }),
			ev(1, event.StepStarted, "a", nil),
			ev(1, event.StepWaiting, "b", nil),
			ev(1, event.StepWaiting, "c", nil),
			ev(2, event.StepFinished, "a", func(e *event.Event) { e.Status, e.DurationMS = "succeeded", 1 }),
			ev(2, event.StepStarted, "b", nil),
			ev(3, event.StepFinished, "b", func(e *event.Event) { e.Status, e.Error, e.DurationMS = "failed", "boom", 1 }),
			ev(4, event.StepFinished, "c", func(e *event.Event) { e.Status, e.Detail = "skipped", "not run: step b failed" }),
		},
		want: []string{"line run demo (r)", "start a", "start b", "start c", "finish ✓ a 1ms", "finish ✗ b 1ms: boom", "finish ⊘ c skipped: not run: step b failed"},
	}, {
		name: "a called chain's steps are caller/step, and its end is not the run's",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "outer" }),
			ev(1, event.StepStarted, "sub", nil),
			ev(2, event.RunStarted, "", func(e *event.Event) { e.RunID, e.Chain = "r/sub", "inner" }),
			ev(3, event.StepStarted, "a", func(e *event.Event) { e.RunID = "r/sub" }),
			ev(4, event.StepFinished, "a", func(e *event.Event) { e.RunID, e.Status, e.DurationMS = "r/sub", "succeeded", 1 }),
			ev(5, event.RunFinished, "", func(e *event.Event) { e.RunID, e.Chain, e.Status = "r/sub", "inner", "succeeded" }),
			ev(6, event.StepFinished, "sub", func(e *event.Event) { e.Status, e.DurationMS = "succeeded", 5 }),
			ev(7, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status, e.DurationMS = "outer", "succeeded", 7 }),
		},
		want: []string{"line run outer (r)", "start sub", "start sub/a", "finish ✓ sub/a 1ms", "finish ✓ sub 5ms", "end outer succeeded in 7ms"},
	}, {
		name: "a called chain's end is not the run's even with the caller's run id",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "outer" }),
			ev(1, event.StepStarted, "sub", nil),
			ev(2, event.RunStarted, "", func(e *event.Event) { e.Chain = "inner" }),
			ev(3, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status = "inner", "failed" }),
			ev(4, event.StepFinished, "sub", func(e *event.Event) { e.Status, e.Error, e.DurationMS = "failed", "chain inner failed", 3 }),
			ev(5, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status, e.DurationMS = "outer", "failed", 5 }),
		},
		want: []string{"line run outer (r)", "start sub", "finish ✗ sub 3ms: chain inner failed", "end outer failed in 5ms"},
	}, {
		name: "a move to a fallback model is a line",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }),
			ev(1, event.StepStarted, "ask", func(e *event.Event) { e.Model = "openai/a" }),
			ev(2, event.LLMFallback, "ask", func(e *event.Event) { e.Model, e.Detail, e.Error = "openai/b", "openai/a", "openai: HTTP 500: down" }),
		},
		want: []string{"line run demo (r)", "start ask", "line   ask falling back to openai/b after openai/a: openai: HTTP 500: down"},
	}, {
		name: "transitions, tool calls, retries and a pause are lines",
		events: []event.Event{
			ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain, e.State = "flow", "lint" }),
			ev(1, event.StepStarted, "run_lint", nil),
			ev(2, event.StepAttempt, "run_lint", func(e *event.Event) {
				e.Attempt, e.Status, e.Error, e.Detail = 1, "retrying", "boom", "retry in 0s"
			}),
			ev(3, event.ToolCall, "run_lint", func(e *event.Event) {
				e.Tool, e.Digest, e.Status, e.DurationMS = "Read", "abc123abc123", "ok", 2
			}),
			ev(4, event.StepFinished, "run_lint", func(e *event.Event) { e.Status, e.DurationMS = "succeeded", 4 }),
			ev(5, event.Transition, "run_lint", func(e *event.Event) { e.State, e.Target = "lint", "gate" }),
			ev(6, event.Decision, "", func(e *event.Event) { e.State, e.Status, e.Detail = "gate", "paused", "waiting for: go" }),
			ev(7, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status, e.State, e.DurationMS = "flow", "paused", "gate", 7 }),
		},
		want: []string{
			"line run flow (r)", "start run_lint",
			"line ↻ run_lint attempt 1 failed: boom; retry in 0s",
			"line   run_lint Read(abc123abc123) ok 2ms",
			"finish ✓ run_lint 4ms",
			"line → lint → gate (run_lint)",
			"line ⏸ gate: waiting for: go",
			"end flow paused at gate in 7ms",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBoard(false)
			var got []string
			for _, e := range tt.events {
				got = append(got, kinds(b.apply(e))...)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("changes:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestBoardWorkflow(t *testing.T) {
	b := newBoard(false)
	b.apply(ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "dag" }))
	if b.workflow {
		t.Error("a chain is not a workflow")
	}
	b = newBoard(false)
	b.apply(ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain, e.State = "flow", "start" }))
	if !b.workflow {
		t.Error("a run.started with a state is a workflow's")
	}
}

func TestBoardColor(t *testing.T) {
	b := newBoard(true)
	b.apply(ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }))
	got := kinds(b.apply(ev(1, event.StepFinished, "x", func(e *event.Event) { e.Status, e.DurationMS = "failed", 3 })))
	want := []string{"line \x1b[31m✗\x1b[0m x 3ms: "}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	got = kinds(b.apply(ev(2, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status, e.DurationMS = "demo", "succeeded", 5 })))
	if want := []string{"end \x1b[32mdemo succeeded in 5ms\x1b[0m"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// the colour is reset before each newline, never after it
	if got, want := b.paint("waiting for:\ngo\n", render.SGRYellow), "\x1b[33mwaiting for:\x1b[0m\n\x1b[33mgo\x1b[0m\n"; got != want {
		t.Errorf("paint = %q, want %q", got, want)
	}
}

// TestStepRowStatus follows one LLM step's row: waiting for a slot, its
// model from the start, tokens estimated while an answer streams, the
// real count once the call ends (and the model that answered), the
// attempt after a retry, and tool calls.
func TestStepRowStatus(t *testing.T) {
	b := newBoard(false)
	b.apply(ev(0, event.RunStarted, "", nil))
	start := b.apply(ev(0, event.StepWaiting, "ask", func(e *event.Event) { e.Detail = "waiting for a free slot (--max-parallel 2)" }))
	r := start[0].row
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	if got := r.status(at(5000)); got != "waiting for a free slot (--max-parallel 2)" || r.waitGlyph() != waitMark {
		t.Errorf("a waiting row shows %q %q", r.waitGlyph(), got)
	}
	if again := b.apply(ev(100, event.StepStarted, "ask", func(e *event.Event) { e.Model = "openai/gpt-4o-mini" })); len(again) != 0 {
		t.Errorf("a waiting step that starts got a second row: %v", kinds(again))
	}
	steps := []struct {
		e    *event.Event
		now  time.Time
		want string
	}{
		{nil, at(350), "0.2s  openai/gpt-4o-mini"},
		{ptr(ev(300, event.LLMDelta, "ask", func(e *event.Event) { e.Line = "Hello" })), at(400), "0.3s  openai/gpt-4o-mini  ~2 tokens"},
		{ptr(ev(310, event.LLMDelta, "ask", func(e *event.Event) { e.Line = ", world" })), at(410), "0.3s  openai/gpt-4o-mini  ~3 tokens"},
		{ptr(ev(320, event.LLMDelta, "ask", func(e *event.Event) { e.Line = "!" })), at(420), "0.3s  openai/gpt-4o-mini  ~4 tokens"},
		{ptr(ev(330, event.LLMDelta, "ask", func(e *event.Event) { e.Line = "" })), at(430), "0.3s  openai/gpt-4o-mini  ~4 tokens"},
		{ptr(ev(400, event.LLMCall, "ask", func(e *event.Event) {
			e.Model, e.Status, e.InputTokens, e.OutputTokens = "openai/gpt-4o", "ok", 20, 5
		})), at(500), "0.4s  openai/gpt-4o  5 tokens"},
		{ptr(ev(405, event.LLMFallback, "ask", func(e *event.Event) {
			e.Model, e.Detail, e.Error = "openai/gpt-4o", "openai/gpt-4o-mini", "openai: HTTP 500: down"
		})), at(505), "0.4s  openai/gpt-4o  5 tokens"},
		{ptr(ev(410, event.ToolCall, "ask", func(e *event.Event) { e.Tool, e.Status = "Read", "ok" })), at(510), "0.4s  openai/gpt-4o  5 tokens  1 tool call"},
		{ptr(ev(420, event.ToolCall, "ask", func(e *event.Event) { e.Tool, e.Status = "Glob", "ok" })), at(520), "0.4s  openai/gpt-4o  5 tokens  2 tool calls"},
		{ptr(ev(500, event.StepAttempt, "ask", func(e *event.Event) { e.Attempt = 2 })), at(600), "0.5s  attempt 2  openai/gpt-4o  5 tokens  2 tool calls"},
		{ptr(ev(600, event.LLMDelta, "ask", func(e *event.Event) { e.Line = strings.Repeat("x", 40) })), at(75_100), "1m15s  attempt 2  openai/gpt-4o  ~15 tokens  2 tool calls"},
		{ptr(ev(700, event.StepFinished, "ask", func(e *event.Event) {
			e.Status, e.DurationMS, e.Model, e.InputTokens, e.OutputTokens = "succeeded", 700, "openai/gpt-4o", 40, 12
		})), at(700), "700ms openai/gpt-4o (40→12 tokens)"},
	}
	for i, s := range steps {
		if s.e != nil {
			b.apply(*s.e)
		}
		if got := r.status(s.now); got != s.want {
			t.Errorf("step %d: status %q, want %q", i, got, s.want)
		}
	}
	if got := r.doneGlyph(); got != "✓" {
		t.Errorf("done glyph %q, want ✓", got)
	}
}

func ptr[T any](v T) *T { return &v }

func TestLineQueueKeepsOrder(t *testing.T) {
	var out bytes.Buffer
	q := lineQueue{w: &out}
	row := &stepRow{name: "a"}
	q.add("first", nil)
	q.add("✓ a", row)
	q.add("after a", nil)
	if got := out.String(); got != "first\n" {
		t.Fatalf("before a's bar is gone: %q", got)
	}
	q.release(&stepRow{}) // another bar: changes nothing
	if got := out.String(); got != "first\n" {
		t.Fatalf("after another bar went: %q", got)
	}
	q.release(row)
	if got := out.String(); got != "first\n✓ a\nafter a\n" {
		t.Fatalf("after a's bar went: %q", got)
	}
	q.add("waits", &stepRow{})
	q.drain()
	if got := out.String(); !strings.HasSuffix(got, "after a\nwaits\n") {
		t.Fatalf("drain: %q", got)
	}
}

// termBuffer is a terminal stand-in that mpb and the test may share.
type termBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *termBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *termBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testLive draws into a buffer as if it were an 80-column terminal.
func testLive(color bool) (*Display, *termBuffer) {
	out := &termBuffer{}
	return New(out, color, mpb.WithOutput(out), mpb.WithAutoRefresh(), mpb.WithWidth(80)), out
}

var (
	sgr      = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	cursorUp = regexp.MustCompile(`\x1b\[\d+A`)
	spinners = regexp.MustCompile(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]`)
)

// TestLiveDraws runs a chain's events through the display: two steps side
// by side (one streaming an answer), a failure, a skipped step and the
// end. Redraws happen, and once replayed the screen holds one final line
// per step in event order, and no bar.
func TestLiveDraws(t *testing.T) {
	for _, color := range []bool{true, false} {
		t.Run(fmt.Sprintf("color=%v", color), func(t *testing.T) {
			l, out := testLive(color)
			now := time.Now()
			at := func(ms int) func(*event.Event) {
				return func(e *event.Event) { e.Time = now.Add(time.Duration(ms) * time.Millisecond) }
			}
			l.Emit(ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "demo" }))
			l.Emit(ev(0, event.StepStarted, "fetch", at(0)))
			l.Emit(ev(0, event.StepStarted, "ask", at(0)))
			l.Emit(ev(0, event.StepStarted, "slow", at(0)))
			for i := range 20 {
				l.Emit(ev(0, event.LLMDelta, "ask", func(e *event.Event) { e.Line = fmt.Sprintf("piece %d ", i) }))
				time.Sleep(15 * time.Millisecond)
			}
			if got := out.String(); !spinners.MatchString(got) || !strings.Contains(got, " ask ") || !strings.Contains(got, " fetch ") {
				t.Fatalf("no spinner rows while steps run:\n%q", got)
			}
			l.Emit(ev(0, event.LLMCall, "ask", func(e *event.Event) { e.Model, e.Status, e.OutputTokens = "openai/gpt-4o", "ok", 40 }))
			l.Emit(ev(0, event.StepFinished, "ask", func(e *event.Event) {
				e.Status, e.DurationMS, e.Model, e.InputTokens, e.OutputTokens = "succeeded", 310, "openai/gpt-4o", 9, 40
			}))
			l.Emit(ev(0, event.ToolCall, "fetch", func(e *event.Event) { e.Tool, e.Digest, e.Status = "Bash", "0123456789ab", "ok" }))
			time.Sleep(120 * time.Millisecond)
			l.Emit(ev(0, event.StepFinished, "fetch", func(e *event.Event) {
				e.Status, e.DurationMS, e.Error = "failed", 450, "sh exited with code 3: broken\nmore"
			}))
			l.Emit(ev(0, event.StepFinished, "slow", func(e *event.Event) {
				e.Status, e.DurationMS, e.Error = "cancelled", 451, "cancelled: step fetch failed"
			}))
			l.Emit(ev(0, event.StepFinished, "late", func(e *event.Event) { e.Status, e.Detail = "skipped", "not run: step fetch failed" }))
			l.Emit(ev(0, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status, e.DurationMS = "demo", "failed", 460 }))
			raw := out.String()
			// the display is done: nothing more is drawn
			time.Sleep(3 * liveRefresh)
			if out.String() != raw {
				t.Errorf("drawn after the run ended:\n%q", strings.TrimPrefix(out.String(), raw))
			}
			if !cursorUp.MatchString(raw) {
				t.Errorf("no redraw (cursor up) in:\n%q", raw)
			}
			if hasSGR := sgr.MatchString(raw); hasSGR != color {
				t.Errorf("colour codes: %v, want %v:\n%q", hasSGR, color, raw)
			}
			screen, err := livetest.Replay([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			want := []string{
				"run demo (r)",
				"✓ ask 310ms openai/gpt-4o (9→40 tokens)",
				"  fetch Bash(0123456789ab) ok 0ms",
				"✗ fetch 450ms: sh exited with code 3: broken …",
				"○ slow 451ms: cancelled: step fetch failed",
				"⊘ late skipped: not run: step fetch failed",
				"demo failed in 460ms",
			}
			if !slices.Equal(screen, want) {
				t.Errorf("the screen shows:\n%s\nwant:\n%s", strings.Join(screen, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestLiveWorkflowStopsBetweenStates: in a workflow, once no step runs,
// mpb has stopped and everything is out before Emit returns, so a prompt
// printed next is not redrawn over.
func TestLiveWorkflowStopsBetweenStates(t *testing.T) {
	l, out := testLive(false)
	l.Emit(ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain, e.State = "flow", "build" }))
	l.Emit(ev(0, event.StepStarted, "build", func(e *event.Event) { e.Time = time.Now() }))
	time.Sleep(2 * liveRefresh)
	l.Emit(ev(0, event.StepFinished, "build", func(e *event.Event) { e.Status, e.DurationMS = "succeeded", 200 }))
	l.Emit(ev(0, event.Transition, "ship", func(e *event.Event) { e.State, e.Target = "build", "gate" }))
	l.mu.Lock()
	stopped := l.p == nil
	l.mu.Unlock()
	if !stopped {
		t.Fatal("mpb still runs between a workflow's states")
	}
	raw := out.String()
	screen, err := livetest.Replay([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"run flow (r)", "✓ build 200ms", "→ build → gate (ship)"}; !slices.Equal(screen, want) {
		t.Errorf("the screen shows:\n%s\nwant:\n%s", strings.Join(screen, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasSuffix(raw, "→ build → gate (ship)\n") {
		t.Errorf("something was drawn after the last line:\n%q", raw)
	}
	// a prompt now, and the next state's step: the prompt stays whole
	fmt.Fprint(out, "Choose 1-2 (Enter to pause): 1\n")
	l.Emit(ev(0, event.StepStarted, "deploy", func(e *event.Event) { e.Time = time.Now() }))
	time.Sleep(2 * liveRefresh)
	l.Emit(ev(0, event.StepFinished, "deploy", func(e *event.Event) { e.Status, e.DurationMS = "succeeded", 200 }))
	l.Emit(ev(0, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status, e.State, e.DurationMS = "flow", "succeeded", "done", 400 }))
	screen, err = livetest.Replay([]byte(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"run flow (r)", "✓ build 200ms", "→ build → gate (ship)", "Choose 1-2 (Enter to pause): 1", "✓ deploy 200ms", "flow succeeded at done in 400ms"}
	if !slices.Equal(screen, want) {
		t.Errorf("the screen shows:\n%s\nwant:\n%s", strings.Join(screen, "\n"), strings.Join(want, "\n"))
	}
}

// TestLiveConcurrent emits from many steps at once (run with -race): the
// display neither races nor deadlocks, and every step ends as one line.
func TestLiveConcurrent(t *testing.T) {
	l, out := testLive(true)
	l.Emit(ev(0, event.RunStarted, "", func(e *event.Event) { e.Chain = "wide" }))
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			id := fmt.Sprintf("s%02d", i)
			l.Emit(ev(0, event.StepStarted, id, func(e *event.Event) { e.Time = time.Now() }))
			for range 30 {
				l.Emit(ev(0, event.LLMDelta, id, func(e *event.Event) { e.Line = "tok " }))
				time.Sleep(time.Millisecond)
			}
			l.Emit(ev(0, event.StepFinished, id, func(e *event.Event) { e.Status, e.DurationMS = "succeeded", int64(i) }))
		})
	}
	wg.Wait()
	l.Emit(ev(0, event.RunFinished, "", func(e *event.Event) { e.Chain, e.Status = "wide", "succeeded" }))
	if err := l.Close(); err != nil { // a second close is harmless
		t.Fatal(err)
	}
	screen, err := livetest.Replay([]byte(sgr.ReplaceAllString(out.String(), "")))
	if err != nil {
		t.Fatal(err)
	}
	if len(screen) != 14 || screen[0] != "run wide (r)" || screen[13] != "wide succeeded in 0ms" {
		t.Fatalf("the screen shows:\n%s", strings.Join(screen, "\n"))
	}
	done := slices.Sorted(slices.Values(screen[1:13]))
	for i, line := range done {
		if want := fmt.Sprintf("✓ s%02d %dms", i, i); line != want {
			t.Errorf("line %q, want %q", line, want)
		}
	}
}

// TestHoldStopsDrawingDuringAPrompt: while a prompt holds the display,
// nothing is drawn (a step starting meanwhile waits, a line is kept
// back), and the steps still running get their bars back afterwards.
func TestHoldStopsDrawingDuringAPrompt(t *testing.T) {
	var buf termBuffer
	l := New(&buf, false, mpb.WithOutput(&buf), mpb.WithWidth(80), mpb.WithAutoRefresh())
	t0 := time.Now()
	ev := func(typ event.Type, step string) event.Event {
		return event.Event{Type: typ, Step: step, Chain: "c", Time: t0, Kind: "cli", Status: "succeeded"}
	}
	l.Emit(ev(event.RunStarted, ""))
	l.Emit(ev(event.StepStarted, "slow"))
	time.Sleep(3 * liveRefresh)
	var during string
	l.Hold(func() {
		l.Emit(ev(event.StepStarted, "other"))
		l.Emit(ev(event.RunStopping, "")) // Ctrl-C at the prompt: its line waits for the prompt's
		mark := len(buf.String())
		time.Sleep(3 * liveRefresh)
		during = buf.String()[mark:]
	})
	if during != "" {
		t.Errorf("drawn while held: %q", during)
	}
	l.mu.Lock()
	bars := len(l.bars)
	l.mu.Unlock()
	if bars != 2 {
		t.Errorf("%d bars after the prompt, want 2 (slow and other)", bars)
	}
	if !strings.Contains(buf.String(), "stopping… (Ctrl-C again to force)\n") {
		t.Errorf("the line held back during the prompt never came: %q", buf.String())
	}
	l.Emit(ev(event.StepFinished, "slow"))
	l.Emit(ev(event.StepFinished, "other"))
	l.Emit(event.Event{Type: event.RunFinished, Chain: "c", Status: "succeeded", Time: t0})
}
