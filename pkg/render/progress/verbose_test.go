package progress

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

// lockedBuffer is a writer the printer's timer and the test share.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls out until it holds want, failing after limit.
func waitFor(t *testing.T, out *lockedBuffer, want string, limit time.Duration) {
	t.Helper()
	start := time.Now()
	for !strings.Contains(out.String(), want) {
		if time.Since(start) > limit {
			t.Fatalf("after %v the output is %q, want it to hold %q", limit, out.String(), want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A step that prints a line now and then (a slow trickle) has each line
// shown within the flush interval, though nothing else happens in the
// run to write it out: buffering never holds a quiet step's lines back.
func TestVerboseTrickleShowsPromptly(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    event.Event
		want string
	}{
		{"a batch of one line", event.Event{Type: event.StepLog, Step: "build", Lines: "compiling\n"}, "[build] compiling\n"},
		{"a batch of lines", event.Event{Type: event.StepLog, Step: "test", Lines: "ok a\nok b\n"}, "[test] ok a\n[test] ok b\n"},
		{"a line of its own", event.Event{Type: event.StepLog, Step: "route", Line: "route x (llm): a"}, "[route] route x (llm): a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &lockedBuffer{}
			p := &Printer{W: out, Verbose: true}
			for i := range 3 { // the same line three times, 150 ms apart:
				// each shows within a second (flushEvery, and room for a
				// busy machine) with nothing else emitted
				p.Emit(tc.e)
				waitFor(t, out, strings.Repeat(tc.want, i+1), time.Second)
				time.Sleep(150 * time.Millisecond)
			}
		})
	}
}

// Lines streamed in many batches are written in few writes, in order,
// and all of them are out when the step's end is shown, before it.
func TestVerboseLinesAreBufferedAndFlushedAtTheStepsEnd(t *testing.T) {
	out := &lockedBuffer{}
	p := &Printer{W: out, Verbose: true}
	var want strings.Builder
	for i := range 2000 {
		line := strings.Repeat("x", i%50)
		p.Emit(event.Event{Type: event.StepLog, Step: "s", Lines: line + "\n" + line + "y\n"})
		want.WriteString("[s] " + line + "\n[s] " + line + "y\n")
	}
	p.Emit(event.Event{Type: event.StepFinished, Step: "s", Status: event.Succeeded, DurationMS: 5})
	want.WriteString("✓ s 5ms\n")
	if got := out.String(); got != want.String() {
		t.Fatalf("wrote %d bytes, want %d: the lines are not all there, in order, before the step's end", len(got), want.Len())
	}
	if out.writes > 10 {
		t.Errorf("4,000 lines took %d writes, want them buffered", out.writes)
	}
}

// A prompt's line is never written into: lines buffered before it are
// out before it, lines streamed while it waits come after it.
func TestVerboseLinesWaitForAPrompt(t *testing.T) {
	out := &lockedBuffer{}
	p := &Printer{W: out, Verbose: true}
	p.Emit(event.Event{Type: event.StepLog, Step: "s", Lines: "before\n"})
	p.Hold(func() {
		_, _ = io.WriteString(out, "Allow? ")
		p.Emit(event.Event{Type: event.StepLog, Step: "s", Lines: "during\n"})
		time.Sleep(2 * flushEvery)
		_, _ = io.WriteString(out, "y\n")
	})
	if got, want := out.String(), "[s] before\nAllow? y\n[s] during\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

// BenchmarkPrinterVerbose: a million short lines, in batches as reads
// of a command's output bring them, printed stamped.
func BenchmarkPrinterVerbose(b *testing.B) {
	var batch strings.Builder
	for i := range 4600 {
		batch.WriteString(strings.Repeat("7", 1+i%7) + "\n")
	}
	e := event.Event{Type: event.StepLog, Step: "out", Lines: batch.String(), Time: time.Now()}
	for b.Loop() {
		p := &Printer{W: io.Discard, Verbose: true, Stamp: true}
		for range 1000000 / 4600 {
			p.Emit(e)
		}
		p.Flush()
	}
}

// Every line of a batch is shown whole, an empty one too, and a batch
// whose last line lacks its newline loses nothing.
func TestVerboseBatchLines(t *testing.T) {
	for _, tc := range []struct{ lines, want string }{
		{"a\n\nb\n", "[s] a\n[s] \n[s] b\n"},
		{"\n", "[s] \n"},
		{"a\nlast", "[s] a\n[s] last\n"},
	} {
		out := &lockedBuffer{}
		p := &Printer{W: out, Verbose: true}
		p.Emit(event.Event{Type: event.StepLog, Step: "s", Lines: tc.lines})
		p.Flush()
		if got := out.String(); got != tc.want {
			t.Errorf("batch %q: wrote %q, want %q", tc.lines, got, tc.want)
		}
		if got := p.Line(event.Event{Type: event.StepLog, Step: "s", Lines: tc.lines}) + "\n"; got != tc.want {
			t.Errorf("batch %q: Line is %q, want %q", tc.lines, got, tc.want)
		}
	}
}
