package live

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/render/progress"
)

// liveRefresh is how often the display redraws: the spinner's pace, and
// the longest a finished bar waits to give way to its line.
const liveRefresh = 100 * time.Millisecond

// Display draws a run on a terminal with mpb: a bar with a spinner for
// every running step, side by side, and plain lines above them for
// finished steps, transitions and tool calls. The top-level run.finished
// waits for mpb's last frame before it returns, so the result printed
// next cannot interleave with a redraw; in a workflow mpb also stops
// between states, where a person may be prompted.
type Display struct {
	mu    sync.Mutex
	w     io.Writer
	opts  []mpb.ContainerOption
	color bool
	now   func() time.Time
	board *board
	// p is the mpb container: started by the first step, stopped at the
	// run's end (in a workflow, whenever no step runs); nil when stopped.
	p    *mpb.Progress
	bars map[*stepRow]*mpb.Bar
	// lines holds the lines above the bars in the order of their events.
	lines lineQueue
	// plain takes over if mpb fails (the terminal went away).
	plain  *progress.Printer
	broken bool
	// held counts prompts in progress (Hold): nothing is drawn meanwhile,
	// and steps that start wait in waiting for their bars.
	held    int
	waiting []*stepRow
}

var (
	_ event.Sink = (*Display)(nil)
	_ io.Closer  = (*Display)(nil)
)

// Open is the display on w when w is a terminal mpb can measure and
// redraw, else nil (a pipe, a buffer, a terminal of no size, which would
// show nothing at all). It paints when color is set (iostreams.ColorEnabled).
func Open(w io.Writer, color bool) *Display {
	out, ok := w.(*os.File)
	if f, wraps := w.(interface{ File() *os.File }); wraps {
		// a guarded stream (iostreams.Guard): draw on the terminal itself
		out, ok = f.File(), f.File() != nil
	}
	if !ok {
		return nil
	}
	if w, h, err := term.GetSize(int(out.Fd())); err != nil || w <= 0 || h <= 0 {
		return nil
	}
	return New(out, color, mpb.WithOutput(out))
}

// New draws on w, which opts must name as mpb's output too (tests add
// WithAutoRefresh and WithWidth to draw into a buffer); color paints
// glyphs and statuses (off under NO_COLOR).
func New(w io.Writer, color bool, opts ...mpb.ContainerOption) *Display {
	return &Display{
		w:     w,
		opts:  append([]mpb.ContainerOption{mpb.WithRefreshRate(liveRefresh)}, opts...),
		color: color,
		now:   time.Now,
		board: newBoard(color),
		bars:  map[*stepRow]*mpb.Bar{},
		plain: &progress.Printer{W: w},
		lines: lineQueue{w: w},
	}
}

// Emit implements event.Sink: it shows e. It is called from running
// steps, so it holds nothing for long: a bar is added or retired, a line
// queued. It waits for mpb (a
// frame or two) only at the run's end and, in a workflow, when no step
// is left running.
func (l *Display) Emit(e event.Event) {
	switch e.Type {
	case event.StepLog, event.StepStreamed, event.StepSaved, event.StepBegun, event.StepProcess, event.TransitionSaved:
		return // never shown live; skip the lock
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		l.plain.Emit(e)
		return
	}
	for _, c := range l.board.apply(e) {
		switch c.kind {
		case showLine:
			l.print(c.line)
		case startRow:
			l.start(c.row)
		case finishRow:
			l.finish(c.row)
		case endRun:
			l.stop()
			l.print(c.line)
		}
	}
}

// Close retires every bar and waits for mpb's last frame; what is
// printed after it cannot be torn by a redraw. The top-level run.finished
// closes the display itself; Close is for a caller that stops early, and
// is safe to call more than once.
func (l *Display) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stop()
	return nil
}

// Hold stops drawing while fn runs — a prompt a person must see and
// answer, such as allowing a tool call — then draws again the steps that
// are still running.
func (l *Display) Hold(fn func()) {
	l.mu.Lock()
	for r := range l.bars {
		l.waiting = append(l.waiting, r)
	}
	l.stop()
	l.held++
	l.lines.hold(true) // nothing writes into the question's line
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.held--; l.held > 0 {
			return
		}
		l.lines.hold(false)
		if l.broken {
			return
		}
		rows := l.waiting
		l.waiting = nil
		for _, r := range rows {
			if r.doneGlyph() == "" {
				l.start(r)
			}
		}
	}()
	fn()
}

// start gives a step its bar, starting mpb if nothing was running.
func (l *Display) start(r *stepRow) {
	if l.held > 0 {
		l.waiting = append(l.waiting, r)
		return
	}
	if l.p == nil {
		l.p = mpb.New(l.opts...)
		l.lines.to(l.p)
	}
	spinner := mpb.SpinnerStyle()
	if l.color {
		spinner = spinner.Meta(func(s string) string { return l.board.paint(s, render.SGRCyan) })
	}
	name := decor.Any(func(decor.Statistics) string { return " " + r.name }, decor.WCSyncSpaceR)
	status := decor.Any(func(decor.Statistics) string { return r.status(l.now()) })
	if l.color {
		status = decor.Meta(status, func(s string) string { return l.board.paint(s, render.SGRDim) })
	}
	bar, err := l.p.Add(0, spinner.Build(),
		mpb.BarWidth(1), mpb.BarFillerTrim(),
		mpb.BarFillerMiddleware(func(spin mpb.BarFiller) mpb.BarFiller {
			return mpb.BarFillerFunc(func(w io.Writer, st decor.Statistics) error {
				// a row starts at column 0 whatever the terminal echoed
				// (^C): mpb moves the cursor up, not back
				if _, err := io.WriteString(w, "\r"); err != nil {
					return err
				}
				if glyph := r.doneGlyph(); glyph != "" {
					_, err := io.WriteString(w, glyph)
					return err
				}
				if mark := r.waitGlyph(); mark != "" {
					_, err := io.WriteString(w, l.board.paint(mark, render.SGRDim))
					return err
				}
				return spin.Fill(w, st)
			})
		}),
		mpb.AppendDecorators(name, status, &farewell{row: r, lines: &l.lines}),
	)
	if err != nil {
		l.fail()
		return
	}
	l.bars[r] = bar
}

// finish retires a finished step's bar: mpb drops it, and its final
// line (with any after it) is printed once the bar is gone.
func (l *Display) finish(r *stepRow) {
	bar, ok := l.bars[r]
	if !ok {
		l.print(r.finalLine()) // its bar was never drawn
		return
	}
	delete(l.bars, r)
	l.lines.add(r.finalLine(), r)
	bar.Abort(true)
	if len(l.bars) == 0 && l.board.workflow {
		// a workflow may prompt a person next: nothing may redraw over
		// that. A chain's next steps reuse the running mpb instead, not
		// waiting out its last frames.
		l.stop()
	}
}

// stop retires any bars left and waits for mpb to draw its last frame.
func (l *Display) stop() {
	if l.p == nil {
		return
	}
	for r, bar := range l.bars {
		bar.Abort(true)
		delete(l.bars, r)
	}
	l.p.Wait() // every farewell has run: the queue is empty
	l.p = nil
	l.lines.to(nil)
}

// print writes a line above the bars, after those queued before it.
func (l *Display) print(line string) {
	if line != "" {
		l.lines.add(line, nil)
	}
}

// fail gives up on drawing (mpb stopped: the terminal is gone or cannot
// be measured); what is queued is printed, and the rest of the run is
// shown as plain lines.
func (l *Display) fail() {
	l.broken = true
	for r, bar := range l.bars {
		bar.Abort(true)
		delete(l.bars, r)
	}
	if l.p != nil {
		l.p.Shutdown()
		l.p = nil
	}
	l.lines.to(nil)
	l.lines.drain()
}

// lineQueue prints lines above the bars in the order of their events:
// a finished step's line waits until mpb has dropped its bar (a frame or
// two), and the lines after it wait with it, so a step never shows as
// done above its own spinner, nor after what followed it. It has its own
// lock: mpb's goroutines release lines while the display's is held.
type lineQueue struct {
	mu      sync.Mutex
	w       io.Writer
	p       *mpb.Progress
	pending []queuedLine
	// held keeps every line back while a prompt is on the terminal.
	held bool
}

// queuedLine waits for its row's bar to be gone; with no row it is ready.
type queuedLine struct {
	text string
	row  *stepRow
}

// to sets where lines go: above p's bars, or straight out when nil.
func (q *lineQueue) to(p *mpb.Progress) {
	q.mu.Lock()
	q.p = p
	q.mu.Unlock()
}

// add queues text, to wait for row's bar when row is not nil.
func (q *lineQueue) add(text string, row *stepRow) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, queuedLine{text, row})
	q.flush()
}

// hold keeps lines back (on) while a prompt is on the terminal, or
// prints what waited (off).
func (q *lineQueue) hold(on bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.held = on
	q.flush()
}

// release says row's bar is gone.
func (q *lineQueue) release(row *stepRow) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := range q.pending {
		if q.pending[i].row == row {
			q.pending[i].row = nil
		}
	}
	q.flush()
}

// drain prints everything queued, ready or not.
func (q *lineQueue) drain() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := range q.pending {
		q.pending[i].row = nil
	}
	q.flush()
}

// flush prints the ready lines at the head of the queue, unless held;
// q.mu is held.
func (q *lineQueue) flush() {
	for !q.held && len(q.pending) > 0 && q.pending[0].row == nil {
		line := q.pending[0].text + "\n"
		q.pending = q.pending[1:]
		if q.p != nil {
			// at column 0, as a row is: it may come first after mpb's
			// cursor up
			if _, err := q.p.Write([]byte("\r" + line)); err == nil {
				continue
			}
		}
		_, _ = io.WriteString(q.w, line) // no bars, or mpb stopped: say it anyway
	}
}

// farewell is a bar's last decorator: it draws nothing, and once mpb has
// let go of the bar it releases the step's final line to the queue.
type farewell struct {
	decor.WC
	row   *stepRow
	lines *lineQueue
}

var _ decor.ShutdownListener = (*farewell)(nil)

// Decor implements decor.Decorator: nothing to draw.
func (f *farewell) Decor(decor.Statistics) (string, int) { return "", 0 }

// OnShutdown implements decor.ShutdownListener.
func (f *farewell) OnShutdown() { f.lines.release(f.row) }
