package progress

import (
	"fmt"
	"io"
	"sync"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/render"
)

// Printer writes run events as plain lines, one per event, with no
// escape codes: readable in a terminal and in a CI log alike.
type Printer struct {
	// W receives the lines (stderr: stdout keeps only the result).
	W io.Writer
	// Verbose shows each step's log lines, prefixed with its id.
	Verbose bool
	// Quiet shows nothing but log lines (when Verbose).
	Quiet bool
	// Stamp starts each line with the event's time, for logs read later.
	Stamp bool

	mu sync.Mutex
	// held counts prompts on the terminal (Hold); the lines of that time
	// wait in pending.
	held    int
	pending []string
}

var _ event.Sink = (*Printer)(nil)

// Emit implements event.Sink: it writes e's line, if e has one.
func (p *Printer) Emit(e event.Event) {
	line := p.Line(e)
	if line == "" {
		return
	}
	if p.Stamp {
		line = e.Time.Format("15:04:05.000") + " " + line
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held > 0 {
		p.pending = append(p.pending, line)
		return
	}
	fmt.Fprintln(p.W, line)
}

// Hold keeps lines back while fn runs — a question on the terminal, whose
// line nothing may write into (a Ctrl-C there prints its "stopping" line
// after the prompt's newline) — then prints them.
func (p *Printer) Hold(fn func()) {
	p.mu.Lock()
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
			return "[" + e.Step + "] " + e.Line
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
