package github

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/fsutil"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// Renderer renders a run for a GitHub Actions log when the job runs
// with GITHUB_ACTIONS=true: each step's log in a collapsible group,
// failures as annotations on the chain file's line, a paused workflow as
// a notice with its resume commands, and a Markdown report appended to
// $GITHUB_STEP_SUMMARY. Workflow commands go to stderr (GitHub reads them
// there too), so stdout keeps only the result and $(chainrun run x) works.
//
// It is an event sink while the run goes (--verbose log lines, grouped
// per step) and a report once the result is known (Report).
type Renderer struct {
	w       io.Writer
	verbose bool
	quiet   bool
	// summary is the file named by $GITHUB_STEP_SUMMARY ("" for none),
	// output the one $GITHUB_OUTPUT names (step outputs: outputs.go).
	summary, output string
	// secrets are the forms of secret inputs' values (MaskSecrets), never
	// written to a file.
	secrets []string
	// wd is the directory chainrun started in (relative chain files are
	// relative to it); base the one annotation paths are relative to
	// ($GITHUB_WORKSPACE, else wd), so GitHub links them to the file.
	wd, base string

	mu    sync.Mutex
	logs  map[logKey]*stepLog
	order []logKey
}

var _ event.Sink = (*Renderer)(nil)

// logKey names a step across the runs of one process: a chain step's
// callee emits its own steps under its own run id.
type logKey struct{ runID, step string }

// stepLog is a step's buffered log: printed whole when the step finishes,
// so the groups of parallel steps never interleave.
type stepLog struct {
	lines   []string
	dropped int
}

// maxGroupLines caps the lines kept per step; the earliest are dropped
// (and counted), as a log's end is what explains a failure.
const maxGroupLines = 5000

// Options are what a command chooses about the rendering.
type Options struct {
	// Verbose groups each step's log lines under its title.
	Verbose bool
	// Quiet prints no groups, only annotations and the summary.
	Quiet bool
}

// New returns the GitHub Actions renderer, writing to w, when getenv
// says the job runs there (GITHUB_ACTIONS=true), else nil. wd is the
// directory chainrun started in; getenv is os.Getenv but for tests.
func New(getenv func(string) string, wd string, w io.Writer, o Options) *Renderer {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	base := getenv("GITHUB_WORKSPACE")
	if base == "" {
		base = wd
	}
	return &Renderer{w: unguarded(w), verbose: o.Verbose, quiet: o.Quiet, summary: getenv("GITHUB_STEP_SUMMARY"), output: getenv("GITHUB_OUTPUT"),
		wd: wd, base: base, logs: map[logKey]*stepLog{}}
}

// Emit buffers --verbose log lines per step and prints a step's group
// when it finishes.
func (g *Renderer) Emit(e event.Event) {
	if !g.verbose || g.quiet {
		return
	}
	switch e.Type {
	case event.StepLog:
		g.mu.Lock()
		defer g.mu.Unlock()
		k := logKey{e.RunID, e.Step}
		l := g.logs[k]
		if l == nil {
			l = &stepLog{}
			g.logs[k] = l
			g.order = append(g.order, k)
		}
		e.EachLogLine(func(line string) {
			// a copy: a batch's lines share the text of the read they
			// came in, which a kept line would hold whole
			l.lines = append(l.lines, strings.Clone(line))
			if len(l.lines) >= 2*maxGroupLines {
				n := len(l.lines) - maxGroupLines
				l.lines = append(l.lines[:0:0], l.lines[n:]...)
				l.dropped += n
			}
		})
	case event.StepFinished:
		g.mu.Lock()
		defer g.mu.Unlock()
		k := logKey{e.RunID, e.Step}
		l := g.logs[k]
		delete(g.logs, k)
		var body []string
		if l != nil {
			body = l.tail()
		}
		if (e.Status == record.StepFailed || e.Status == record.StepCancelled) && e.Error != "" {
			body = append(body, "error: "+e.Error)
		}
		title := stepTitle(e.Step, e.Status, e.DurationMS, e.Attempt, e.Detail == "reused from the saved run")
		g.writeGroup(title, body)
	}
}

// tail is the buffered log, the last maxGroupLines lines, with a note of
// how many came before.
func (l *stepLog) tail() []string {
	lines := l.lines
	dropped := l.dropped
	if n := len(lines) - maxGroupLines; n > 0 {
		lines, dropped = lines[n:], dropped+n
	}
	if dropped == 0 {
		return append([]string(nil), lines...)
	}
	return append([]string{fmt.Sprintf("… %d earlier lines not shown", dropped)}, lines...)
}

// writeGroup prints one group in a single write: writers of one *os.File
// are serialised by Go, so no other line lands inside it.
func (g *Renderer) writeGroup(title string, body []string) {
	var b strings.Builder
	b.WriteString(ghCommand("group", nil, title) + "\n")
	ghVerbatim(&b, body)
	b.WriteString("::endgroup::\n")
	_, _ = io.WriteString(g.w, b.String())
}

// stepTitle is a group's title: the step and how it ended, readable with
// the group folded: "build (failed, 1.2s, 3 attempts)".
func stepTitle(id string, status event.Status, durationMS int64, attempts int, reused bool) string {
	switch {
	case reused:
		return fmt.Sprintf("%s (%s, kept from the saved run)", id, status)
	case status == record.StepSkipped || status == record.StepCached:
		return fmt.Sprintf("%s (%s)", id, status)
	}
	t := fmt.Sprintf("%s (%s, %s", id, status, render.Millis(durationMS))
	if attempts > 1 {
		t += fmt.Sprintf(", %d attempts", attempts)
	}
	return t + ")"
}

// Report renders a finished (or paused) run: what is left of the groups,
// the annotations on c's file, and the job summary appended. A summary
// that cannot be written is a warning of the result, never a failure of
// the run. A nil Renderer (the job does not run in GitHub Actions) does
// nothing.
func (g *Renderer) Report(c *chain.Chain, res *record.Result) {
	if g == nil {
		return
	}
	if !g.quiet {
		if g.verbose {
			g.flushUnfinished()
		} else {
			for _, s := range res.Steps {
				g.writeGroup(stepTitle(s.ID, s.Status, s.DurationMS, s.Attempts, s.Reused), stepDetails(s))
			}
		}
	}
	var b strings.Builder
	for _, line := range annotations(c, res, g.path(c)) {
		b.WriteString(line + "\n")
	}
	_, _ = io.WriteString(g.w, b.String())
	if g.summary == "" {
		return
	}
	if err := appendFile(g.summary, summaryMarkdown(res, g.path(c))); err != nil {
		res.Warnings = append(res.Warnings, "writing the job summary ($GITHUB_STEP_SUMMARY): "+err.Error())
	}
}

// flushUnfinished prints the groups of steps that logged but never
// finished (an interrupted run), in the order they began to log.
func (g *Renderer) flushUnfinished() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, k := range g.order {
		if l, ok := g.logs[k]; ok {
			g.writeGroup(k.step+" (unfinished)", l.tail())
			delete(g.logs, k)
		}
	}
	g.order = nil
}

// stepDetails is the body of a step's group without --verbose: how it
// ended, from the result, and on failure the tail of its stderr.
func stepDetails(s record.StepResult) []string {
	lines := []string{"status: " + string(s.Status)}
	if s.Status != record.StepSkipped {
		lines = append(lines, fmt.Sprintf("attempts: %d", s.Attempts),
			"duration: "+render.Millis(s.DurationMS))
	}
	if s.Reused {
		lines = append(lines, "kept from the saved run")
	}
	if s.Model != "" {
		lines = append(lines, "model: "+s.Model)
	}
	if s.Usage != nil && (s.Usage.InputTokens > 0 || s.Usage.OutputTokens > 0) {
		lines = append(lines, fmt.Sprintf("tokens: %d in, %d out", s.Usage.InputTokens, s.Usage.OutputTokens))
	}
	if s.Reason != "" {
		lines = append(lines, "reason: "+s.Reason)
	}
	if s.Error != "" {
		lines = append(lines, "error: "+s.Error)
	}
	for _, t := range s.Tails() {
		lines = append(lines, t.Stream+" (last lines):")
		lines = append(lines, strings.Split(t.Text, "\n")...)
	}
	return lines
}

// path is the chain file as annotations name it: relative to the
// workspace when it lies inside, so GitHub links the annotation to it.
func (g *Renderer) path(c *chain.Chain) string {
	return annotationPath(c.File, g.wd, g.base)
}

// annotationPath makes file (absolute, or relative to wd) relative to
// base, with forward slashes; a file outside base keeps its absolute path.
func annotationPath(file, wd, base string) string {
	if file == "" {
		return ""
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	for _, resolve := range []func(string) string{filepath.Clean, realPath} {
		if rel, err := filepath.Rel(resolve(base), resolve(abs)); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(abs))
}

// realPath resolves symlinks (a workspace reached through a link), or
// returns the path as it is.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// appendFile appends text to a file, creating it: the job summary file
// gathers the reports of every command of a job step, so it is never
// truncated. The name comes from the environment: a FIFO nobody reads
// there would hold the open for good, past every stop signal, so what is
// not a regular file is refused at once.
func appendFile(name, text string) error {
	fh, err := fsutil.OpenFileRegular(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, werr := io.WriteString(fh, text)
	if cerr := fh.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
