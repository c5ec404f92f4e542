package progress

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
)

// Printer writes run events as plain lines, one per event, with no
// escape codes unless Color asks for them: readable in a terminal and in
// a CI log alike. The lines
// of a step's output (--verbose) are buffered, and written when the
// buffer fills, when any other event's line is (a step's end among
// them), and at most flushEvery after the first of them: a chatty step
// costs a write per buffer, not one per line, and a quiet one's lines
// still show at once.
type Printer struct {
	// W receives the lines (stderr: stdout keeps only the result).
	W io.Writer
	// Verbose shows each step's log lines, prefixed with its id.
	Verbose bool
	// Quiet shows nothing but log lines (when Verbose).
	Quiet bool
	// Stamp starts each line with the event's time, for logs read later.
	Stamp bool
	// Color paints each line's leading mark (✓ green, ✗ red, …) and a
	// run's last line, for a log viewer that renders colour
	// (CLICOLOR_FORCE, FORCE_COLOR).
	Color bool

	mu sync.Mutex
	// held counts prompts on the terminal (Hold); the lines of that time
	// wait in pending.
	held    int
	pending []string
	// out holds log lines not written yet; armed says a flush of them is
	// due (a timer runs).
	out   []byte
	armed bool
}

// flushEvery is the longest a log line waits in the buffer.
const flushEvery = 50 * time.Millisecond

// bufferSize is what the buffer holds before it is written at once.
const bufferSize = 64 << 10

var _ event.Sink = (*Printer)(nil)

// Emit implements event.Sink: it writes e's line, if e has one.
func (p *Printer) Emit(e event.Event) {
	if e.Type == event.StepLog {
		if p.Verbose {
			p.logLines(&e)
		}
		return
	}
	line := p.Line(e)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushLocked() // what the step printed comes before what it did
	if line == "" {
		return
	}
	if p.Color {
		line = painted(e, line)
	}
	if p.Stamp {
		line = e.Time.Format("15:04:05.000") + " " + line
	}
	if p.held > 0 {
		p.pending = append(p.pending, line)
		return
	}
	fmt.Fprintln(p.W, line)
}

// logLines buffers a step.log event's lines.
func (p *Printer) logLines(e *event.Event) {
	prefix := "[" + e.Step + "] "
	if p.Stamp {
		prefix = e.Time.Format("15:04:05.000") + " " + prefix
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held > 0 {
		e.EachLogLine(func(l string) { p.pending = append(p.pending, prefix+l) })
		return
	}
	if e.Lines == "" {
		p.add(prefix, e.Line)
	} else {
		p.addBatch(prefix, e.Lines)
	}
	if len(p.out) > 0 && !p.armed {
		p.armed = true
		time.AfterFunc(flushEvery, p.Flush)
	}
}

// addBatch buffers a batch's lines, each after prefix, the buffer grown
// once for all of them (p.mu is held): a million lines cost a few
// milliseconds.
func (p *Printer) addBatch(prefix, lines string) {
	p.out = slices.Grow(p.out, len(lines)+(strings.Count(lines, "\n")+1)*len(prefix)+1)
	for lines != "" {
		i := strings.IndexByte(lines, '\n')
		if i < 0 { // a batch not ended by a newline: its last line
			i = len(lines)
			lines += "\n"
		}
		p.out = append(p.out, prefix...)
		p.out = append(p.out, lines[:i+1]...)
		lines = lines[i+1:]
	}
	if len(p.out) >= bufferSize {
		p.flushLocked()
	}
}

// add buffers a line (p.mu is held).
func (p *Printer) add(prefix, line string) {
	p.out = append(append(append(p.out, prefix...), line...), '\n')
	if len(p.out) >= bufferSize {
		p.flushLocked()
	}
}

// Flush writes the buffered log lines now.
func (p *Printer) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushLocked()
	p.armed = false
}

// flushLocked writes the buffered log lines (p.mu is held).
func (p *Printer) flushLocked() {
	if len(p.out) == 0 {
		return
	}
	_, _ = p.W.Write(p.out)
	if cap(p.out) > 4*bufferSize {
		p.out = nil // one huge line: its buffer is not kept
		return
	}
	p.out = p.out[:0]
}

// Hold keeps lines back while fn runs — a question on the terminal, whose
// line nothing may write into (a Ctrl-C there prints its "stopping" line
// after the prompt's newline) — then prints them.
func (p *Printer) Hold(fn func()) {
	p.mu.Lock()
	p.flushLocked()
	p.held++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.held--; p.held == 0 {
			for _, line := range p.pending {
				fmt.Fprintln(p.W, line)
			}
			p.pending = nil
		}
	}()
	fn()
}

// Line is e as one plain line, "" when e is not shown. The live display
// prints the same lines above its bars, so both say the same.
func (p *Printer) Line(e event.Event) string {
	if e.Type == event.StepLog {
		if p.Verbose {
			return "[" + e.Step + "] " + strings.Join(e.LogLines(), "\n["+e.Step+"] ")
		}
		return ""
	}
	if p.Quiet {
		return ""
	}
	d := render.Millis(e.DurationMS)
	switch e.Type {
	case event.RunStarted:
		return fmt.Sprintf("run %s (%s)", e.Chain, e.RunID)
	case event.StepStarted:
		return "▶ " + e.Step
	case event.StepAttempt:
		if e.Status == "retrying" {
			return fmt.Sprintf("↻ %s attempt %d failed: %s; %s", e.Step, e.Attempt, e.Error, e.Detail)
		}
		return ""
	case event.StepFinished:
		if e.Detail == "reused from the saved run" {
			return fmt.Sprintf("= %s %s (kept from the saved run)", e.Step, e.Status)
		}
		switch e.Status {
		case "succeeded":
			if e.Model != "" {
				return fmt.Sprintf("✓ %s %s %s (%d→%d tokens)", e.Step, d, e.Model, e.InputTokens, e.OutputTokens)
			}
			return fmt.Sprintf("✓ %s %s", e.Step, d)
		case "cached":
			return fmt.Sprintf("↺ %s cached", e.Step)
		case "skipped":
			return fmt.Sprintf("⊘ %s skipped: %s", e.Step, e.Detail)
		case "paused":
			// a workflow step whose workflow waits for a decision
			return fmt.Sprintf("⏸ %s %s: %s", e.Step, d, e.Detail)
		case "cancelled":
			// stopped because another step failed: not a failure of its
			// own, so never the failure's mark
			why := e.Error
			if why == "" {
				why = "cancelled"
			}
			return fmt.Sprintf("○ %s %s: %s", e.Step, d, why)
		default:
			return fmt.Sprintf("✗ %s %s: %s", e.Step, d, e.Error)
		}
	case event.LLMCall:
		if e.Status == "ok" {
			return ""
		}
		line := fmt.Sprintf("  %s %s attempt %d: %s", e.Step, e.Model, e.Attempt, e.Error)
		if e.Detail != "" {
			line += "; " + e.Detail
		}
		return line
	case event.LLMFallback:
		return fmt.Sprintf("  %s falling back to %s after %s: %s", e.Step, e.Model, e.Detail, e.Error)
	case event.FallbackSelected:
		return fmt.Sprintf("  %s falling back to fallback %d (%s) after: %s", e.Step, e.Candidate, e.Kind, e.Error)
	case event.Transition:
		line := fmt.Sprintf("→ %s → %s (%s)", e.State, e.Target, e.Step)
		if e.Detail != "" {
			line = fmt.Sprintf("→ %s → %s (result %s)", e.State, e.Target, e.Detail)
		}
		return line
	case event.Decision:
		if e.Status == "paused" {
			return fmt.Sprintf("⏸ %s: %s", e.State, e.Detail)
		}
		return fmt.Sprintf("? %s: %s chose %s", e.State, e.DecidedBy, e.Step)
	case event.Acknowledged:
		return fmt.Sprintf("✓ %s: %s acknowledged %s", e.State, e.DecidedBy, e.Detail)
	case event.ToolCall:
		if e.Status == "denied" {
			return "" // the denial's own line says it
		}
		line := fmt.Sprintf("  %s %s(%s) %s %s", e.Step, e.Tool, callShown(e), e.Status, d)
		if e.Error != "" {
			line += ": " + e.Error
		}
		return line
	case event.ToolGranted:
		return fmt.Sprintf("  %s %s(%s) allowed outside its tools (%s)", e.Step, e.Tool, callShown(e), e.DecidedBy)
	case event.ToolDenied:
		return fmt.Sprintf("  %s %s(%s) denied: not among its tools (%s)", e.Step, e.Tool, callShown(e), e.DecidedBy)
	case event.HandlerStarted:
		return fmt.Sprintf("↳ %s handler (run %s)", e.Handler, e.Status)
	case event.RunStopping:
		if e.Detail == "forced" {
			return "stopping now: killing the running steps"
		}
		return "stopping… (Ctrl-C again to force)"
	case event.RunFinished:
		if e.State != "" {
			return fmt.Sprintf("%s %s at %s in %s", e.Chain, e.Status, e.State, d)
		}
		return fmt.Sprintf("%s %s in %s", e.Chain, e.Status, d)
	}
	return ""
}

// callShown is what a tool call line shows between the parentheses: what
// the call touches (the file read, the command), else its arguments'
// digest, which the event log keeps either way.
func callShown(e event.Event) string {
	if e.Subject != "" {
		return e.Subject
	}
	return e.Digest
}

// painted is line with its leading mark coloured as the live board
// colours it, and a run's end in the colour of its outcome.
func painted(e event.Event, line string) string {
	if e.Type == event.RunFinished {
		return render.Paint(line, render.OutcomeColor(e.Status))
	}
	glyph, rest, ok := strings.Cut(line, " ")
	if !ok || utf8.RuneCountInString(glyph) != 1 || glyph[0] < utf8.RuneSelf {
		return line
	}
	return render.Paint(glyph, render.GlyphColor(glyph)) + " " + rest
}
