package live

import (
	"cmp"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/progress"
)

// board is the live display's model of a run, built from its events
// alone: which steps run now, what each shows, and what every event
// changes on screen. It does no I/O, so the display's logic is tested
// without a terminal; Display turns its changes into mpb bars.
type board struct {
	// top is the run id of the top-level run; a called chain's events
	// carry top/step as theirs. depth counts the runs started and not
	// finished: the top-level one and the chains it calls.
	top   string
	depth int
	// workflow says the run is a state workflow: between its states a
	// person may be asked to decide, at this terminal.
	workflow bool
	rows     map[rowKey]*stepRow
	// text formats lines as the plain printer does, so both say the same.
	text  progress.Printer
	color bool
}

// rowKey names a running step: a called chain may reuse its caller's ids.
type rowKey struct{ run, step string }

// changeKind is what an event does to the screen.
type changeKind int

const (
	// showLine prints line above the bars.
	showLine changeKind = iota
	// startRow gives row a bar.
	startRow
	// finishRow retires row's bar; its final line takes its place.
	finishRow
	// endRun closes the display, then prints line: nothing may draw after.
	endRun
)

// change is one thing the display must do for an event.
type change struct {
	kind changeKind
	row  *stepRow
	line string
}

func newBoard(color bool) *board {
	return &board{rows: map[rowKey]*stepRow{}, color: color}
}

// apply takes in one event and says what the screen must do about it.
func (b *board) apply(e event.Event) []change {
	key := rowKey{e.RunID, e.Step}
	shown := e
	shown.Step = b.name(e.RunID, e.Step)
	switch e.Type {
	case event.RunStarted:
		if b.depth++; b.depth > 1 {
			return nil // a called chain: its steps show as caller/step
		}
		b.top, b.workflow = e.RunID, e.State != ""
		return b.line(shown)
	case event.RunFinished:
		if b.depth--; b.depth > 0 {
			return nil // a called chain: its caller's step line says it
		}
		b.depth = 0
		return []change{{kind: endRun, line: b.paint(b.text.Line(e), render.OutcomeColor(e.Status))}}
	case event.StepWaiting:
		if r := b.rows[key]; r != nil {
			return nil
		}
		r := &stepRow{name: shown.Step, waiting: true, note: e.Detail}
		b.rows[key] = r
		return []change{{kind: startRow, row: r}}
	case event.StepStarted:
		started := e.Time
		if started.IsZero() {
			started = time.Now()
		}
		if r := b.rows[key]; r != nil {
			// it waited for a slot: its row runs now, timed from here
			r.update(func() { r.waiting, r.started, r.model = false, started, e.Model })
			return nil
		}
		r := &stepRow{name: shown.Step, started: started, attempt: 1, model: e.Model}
		b.rows[key] = r
		return []change{{kind: startRow, row: r}}
	case event.StepAttempt:
		if r := b.rows[key]; r != nil {
			r.update(func() { r.attempt = max(r.attempt, e.Attempt) })
		}
		return b.line(shown)
	case event.LLMDelta:
		if r := b.rows[key]; r != nil {
			r.update(func() { r.deltas, r.chars = r.deltas+1, r.chars+utf8.RuneCountInString(e.Line) })
		}
		return nil
	case event.LLMCall:
		if r := b.rows[key]; r != nil {
			r.update(func() {
				r.model = e.Model
				r.outTokens += e.OutputTokens
				r.deltas, r.chars = 0, 0 // the call's real count replaces the estimate
			})
		}
		return b.line(shown)
	case event.LLMFallback:
		if r := b.rows[key]; r != nil {
			r.update(func() { r.model = e.Model })
		}
		return b.line(shown)
	case event.ToolCall:
		if r := b.rows[key]; r != nil {
			r.update(func() { r.tools++ })
		}
		return b.line(shown)
	case event.StepFinished:
		shown.Error = render.FirstLine(e.Error)
		line := b.text.Line(shown)
		if e.Status == "cached" && e.Detail == "" {
			// how long the cache took, as every finished step says
			line = fmt.Sprintf("↺ %s %s cached", shown.Step, render.Millis(e.DurationMS))
		}
		glyph, rest := splitGlyph(line)
		glyph = b.paint(glyph, render.GlyphColor(glyph))
		line = glyph + rest
		r := b.rows[key]
		if r == nil {
			return []change{{kind: showLine, line: line}} // never ran: skipped, reused
		}
		delete(b.rows, key)
		tail := strings.TrimPrefix(rest, " "+shown.Step)
		r.update(func() { r.final, r.glyph, r.tail = line, glyph, tail })
		return []change{{kind: finishRow, row: r}}
	case event.Decision:
		if e.Status == "paused" {
			return []change{{kind: showLine, line: b.paint(b.text.Line(shown), render.SGRYellow)}}
		}
		return b.line(shown)
	}
	// transitions, grants and denials are lines as they are; saved
	// records and log lines (shown only by --verbose) are not shown
	return b.line(shown)
}

// line is e as a plain line above the bars, if it says anything.
func (b *board) line(e event.Event) []change {
	if s := b.text.Line(e); s != "" {
		return []change{{kind: showLine, line: s}}
	}
	return nil
}

// name is how a step is shown: a called chain's step as caller/step.
func (b *board) name(runID, step string) string {
	if b.top == "" || runID == b.top || step == "" {
		return step
	}
	if caller, ok := strings.CutPrefix(runID, b.top+"/"); ok {
		return caller + "/" + step
	}
	return step
}

// paint is render.Paint unless colour is off.
func (b *board) paint(s, sgr string) string {
	if !b.color {
		return s
	}
	return render.Paint(s, sgr)
}

// splitGlyph cuts a finished step's line after its leading mark.
func splitGlyph(line string) (glyph, rest string) {
	glyph, rest, ok := strings.Cut(line, " ")
	if !ok {
		return "", line
	}
	return glyph, " " + rest
}

// stepRow is what one running step's bar shows. Its mutex is its own:
// mpb draws rows from its goroutines while the display's lock is held.
type stepRow struct {
	name string

	mu sync.Mutex
	// waiting is a step ready to run that waits for a --max-parallel
	// slot; started is when it started.
	waiting bool
	note    string // why it waits
	started time.Time
	attempt int
	// model is the model the step asks (from its start), then the one
	// that answered its last request.
	model string
	// outTokens counts the answers of finished model calls; deltas and
	// chars the pieces of the answer streaming in now (an estimate).
	outTokens     int
	deltas, chars int
	tools         int
	// final is the line that replaces the bar once the step is done;
	// glyph and tail are its parts the bar shows until then.
	final, glyph, tail string
}

func (r *stepRow) update(fn func()) {
	r.mu.Lock()
	fn()
	r.mu.Unlock()
}

// finalLine is the finished step's line, or "" while it runs.
func (r *stepRow) finalLine() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.final
}

// doneGlyph is the mark that replaces the spinner once the step is
// done, "" while it runs.
func (r *stepRow) doneGlyph() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.glyph
}

// waitGlyph is the mark that stands in for the spinner while the step
// waits for a slot, "" once it runs.
func (r *stepRow) waitGlyph() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waiting && r.glyph == "" {
		return waitMark
	}
	return ""
}

// waitMark marks a step waiting for a slot, where a running one spins.
const waitMark = "·"

// status is the row's text after its name: elapsed time, attempt, model,
// tokens and tool calls so far; once the step is done, the rest of its
// final line, for the frame or two before that line takes the bar's place.
func (r *stepRow) status(now time.Time) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.final != "" {
		return strings.TrimPrefix(r.tail, " ")
	}
	if r.waiting {
		return cmp.Or(r.note, "waiting")
	}
	parts := []string{clock(now.Sub(r.started))}
	if r.attempt > 1 {
		parts = append(parts, fmt.Sprintf("attempt %d", r.attempt))
	}
	if r.model != "" {
		parts = append(parts, r.model)
	}
	if est := max(r.deltas, (r.chars+3)/4); est > 0 {
		// about four characters a token, never fewer than the pieces
		parts = append(parts, fmt.Sprintf("~%d tokens", r.outTokens+est))
	} else if r.outTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d tokens", r.outTokens))
	}
	if r.tools == 1 {
		parts = append(parts, "1 tool call")
	} else if r.tools > 1 {
		parts = append(parts, fmt.Sprintf("%d tool calls", r.tools))
	}
	return strings.Join(parts, "  ")
}

// clock is a running step's elapsed time: tenths of seconds under a
// minute, so it ticks visibly; whole seconds after.
func clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}
