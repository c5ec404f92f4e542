package cmd

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

// progress writes run events to stderr as plain lines, one per event,
// with no escape codes: readable in a terminal and in a CI log alike.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	verbose bool
	quiet   bool
	stamp   bool
}

var _ event.Sink = (*progress)(nil)

func (p *progress) Emit(e event.Event) {
	line := p.format(e)
	if line == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stamp {
		fmt.Fprintf(p.w, "%s %s\n", e.Time.Format("15:04:05.000"), line)
		return
	}
	fmt.Fprintln(p.w, line)
}

func (p *progress) format(e event.Event) string {
	if e.Type == event.StepLog {
		if p.verbose {
			return "[" + e.Step + "] " + e.Line
		}
		return ""
	}
	if p.quiet {
		return ""
	}
	d := fmtDuration(time.Duration(e.DurationMS) * time.Millisecond)
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
	case event.ToolCall:
		if e.Status == "denied" {
			return "" // the denial's own line says it
		}
		line := fmt.Sprintf("  %s %s(%s) %s %s", e.Step, e.Tool, e.Digest, e.Status, d)
		if e.Error != "" {
			line += ": " + e.Error
		}
		return line
	case event.ToolGranted:
		return fmt.Sprintf("  %s %s(%s) allowed outside its tools (%s)", e.Step, e.Tool, e.Digest, e.DecidedBy)
	case event.ToolDenied:
		return fmt.Sprintf("  %s %s(%s) denied: not among its tools (%s)", e.Step, e.Tool, e.Digest, e.DecidedBy)
	case event.RunFinished:
		if e.State != "" {
			return fmt.Sprintf("%s %s at %s in %s", e.Chain, e.Status, e.State, d)
		}
		return fmt.Sprintf("%s %s in %s", e.Chain, e.Status, d)
	}
	return ""
}

// fmtDuration shows milliseconds under a second and tenths above.
func fmtDuration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return d.Round(100 * time.Millisecond).String()
}
