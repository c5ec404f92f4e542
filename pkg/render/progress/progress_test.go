package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name string
		e    event.Event
		want string
	}{
		{"a stop asked", event.Event{Type: event.RunStopping}, "stopping… (Ctrl-C again to force)"},
		{"a stop forced", event.Event{Type: event.RunStopping, Detail: "forced"}, "stopping now: killing the running steps"},
		{"a handler starts", event.Event{Type: event.HandlerStarted, Handler: "on_failure", Status: "failed"}, "↳ on_failure handler (run failed)"},
		{"a move to a fallback", event.Event{Type: event.LLMFallback, Step: "ask", Model: "openai/b", Detail: "openai/a", Error: "openai: HTTP 500: down"},
			"  ask falling back to openai/b after openai/a: openai: HTTP 500: down"},
		{"a move to a fallback executor", event.Event{Type: event.FallbackSelected, Step: "fetch", Kind: "rest", Candidate: 2, Error: "HTTP 503"},
			"  fetch falling back to fallback 2 (rest) after: HTTP 503"},
		{"a step waiting for a slot is no line", event.Event{Type: event.StepWaiting, Step: "a", Detail: "waiting"}, ""},
		{"a cancelled step", event.Event{Type: event.StepFinished, Step: "a", Status: event.Cancelled, DurationMS: 40, Error: "cancelled: step b failed"},
			"○ a 40ms: cancelled: step b failed"},
		{"a failed step", event.Event{Type: event.StepFinished, Step: "b", Status: event.Failed, DurationMS: 7, Error: "exited with code 1"},
			"✗ b 7ms: exited with code 1"},
		{"a cancelled step with no error", event.Event{Type: event.StepFinished, Step: "c", Status: event.Cancelled, DurationMS: 3},
			"○ c 3ms: cancelled"},
		{"a tool call names what it read", event.Event{Type: event.ToolCall, Step: "look", Tool: "Read", Digest: "0969f0f16c93", Subject: "notes.txt", Status: "ok", DurationMS: 2},
			"  look Read(notes.txt) ok 2ms"},
		{"a tool call with no subject shows its digest", event.Event{Type: event.ToolCall, Step: "look", Tool: "mytool", Digest: "0969f0f16c93", Status: "ok", DurationMS: 2},
			"  look mytool(0969f0f16c93) ok 2ms"},
	}
	var p Printer
	for _, tt := range tests {
		if got := p.Line(tt.e); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestHoldKeepsLinesBackDuringAPrompt holds that nothing is written into
// a question's line while a prompt waits (a Ctrl-C's "stopping" line
// included): the lines come, in order, once it is answered.
func TestHoldKeepsLinesBackDuringAPrompt(t *testing.T) {
	var out strings.Builder
	p := &Printer{W: &out}
	p.Hold(func() {
		out.WriteString("Choose 1-2 (Enter to pause): ^C\n") // the prompt's own writes
		p.Emit(event.Event{Type: event.RunStopping})
		p.Emit(event.Event{Type: event.Decision, State: "gate", Status: event.Paused, Detail: "waiting for: go"})
	})
	p.Emit(event.Event{Type: event.RunFinished, Chain: "flow", Status: event.Interrupted, State: "gate"})
	want := "Choose 1-2 (Enter to pause): ^C\nstopping… (Ctrl-C again to force)\n⏸ gate: waiting for: go\nflow interrupted at gate in 0ms\n"
	if out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}
}

// TestColorPaintsMarksOnly: with Color, a step's mark and the run's last
// line are painted and the rest of the line is left as it is; without
// it, no escape code is written.
func TestColorPaintsMarksOnly(t *testing.T) {
	for _, color := range []bool{false, true} {
		var buf bytes.Buffer
		p := &Printer{W: &buf, Color: color}
		p.Emit(event.Event{Type: event.StepFinished, Step: "build", Status: "succeeded"})
		p.Emit(event.Event{Type: event.StepFinished, Step: "lint", Status: "failed", Error: "exit status 1"})
		p.Emit(event.Event{Type: event.RunFinished, Chain: "ci", Status: event.Failed, Error: "step lint failed"})
		out := buf.String()
		if !color {
			if strings.Contains(out, "\x1b[") {
				t.Errorf("escape codes without Color: %q", out)
			}
			continue
		}
		for _, want := range []string{"\x1b[32m✓\x1b[0m build", "\x1b[31m✗\x1b[0m lint", "\n\x1b[31m"} {
			if !strings.Contains(out, want) {
				t.Errorf("want %q in %q", want, out)
			}
		}
	}
}
