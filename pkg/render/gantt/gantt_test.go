package gantt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func span(step string, from, to time.Duration, status string) Span {
	return Span{Step: step, Start: t0.Add(from), End: t0.Add(to), Status: event.Status(status)}
}

// TestMermaidTimesFromTheRunsStart holds that the chart's times are a
// clock from the run's start, which Mermaid reads with its dateFormat,
// never epoch milliseconds; the axis suits the run's length, and a run
// of a day or more is dated.
func TestMermaidTimesFromTheRunsStart(t *testing.T) {
	tests := []struct {
		name  string
		spans []Span
		want  []string
	}{
		{"seconds", []Span{span("a", 10*time.Millisecond, 2*time.Second, "succeeded"), span("b", time.Second, 2500*time.Millisecond, "cancelled")},
			[]string{"dateFormat HH:mm:ss.SSS\n", "axisFormat %M:%S.%L\n", "  a :s_a, 00:00:00.010, 00:00:02.000\n", "  b :active, s_b, 00:00:01.000, 00:00:02.500\n"}},
		{"a step of less than a millisecond", []Span{span("a", 2400*time.Microsecond, 2700*time.Microsecond, "succeeded")},
			[]string{"  a :s_a, 00:00:00.002, 00:00:00.003\n"}},
		{"hours", []Span{span("a", 0, 90*time.Minute, "succeeded")},
			[]string{"axisFormat %H:%M:%S\n", "  a :s_a, 00:00:00.000, 01:30:00.000\n"}},
		{"days", []Span{span("a", 0, 25*time.Hour, "skipped")},
			[]string{"dateFormat YYYY-MM-DD HH:mm:ss.SSS\n", "  a :done, s_a, 2026-11-22 10:00:00.000, 2026-11-23 11:00:00.000\n"}},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := Mermaid(&b, "r", Timeline{Start: t0, Spans: tt.spans}); err != nil {
			t.Fatal(err)
		}
		for _, want := range tt.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: no %q in\n%s", tt.name, want, b.String())
			}
		}
	}
}

func TestBar(t *testing.T) {
	tests := []struct {
		from, to, total time.Duration
		want            string
	}{
		{0, 10, 10, strings.Repeat("█", barWidth)},
		{0, 1, 1000, "█"},
		{5, 10, 10, strings.Repeat(" ", barWidth/2) + strings.Repeat("█", barWidth/2)},
		{999, 1000, 1000, strings.Repeat(" ", barWidth-1) + "█"},
		{0, 0, 0, "█"},
	}
	for _, tt := range tests {
		if got := bar(tt.from, tt.to, tt.total); got != tt.want {
			t.Errorf("bar(%d, %d, %d) = %q, want %q", tt.from, tt.to, tt.total, got, tt.want)
		}
	}
}

// TestReadTakesTheLastAttempt reads an event log of two attempts of a
// run, with a called chain's steps in it: the timeline is the last
// attempt's top-level steps, from its run.started.
func TestReadTakesTheLastAttempt(t *testing.T) {
	log := `{"time":"2026-11-22T10:00:00Z","run_id":"r","type":"run.started"}
{"time":"2026-11-22T10:00:01Z","run_id":"r","type":"step.started","step":"old"}
{"time":"2026-11-22T10:00:02Z","run_id":"r","type":"step.finished","step":"old","status":"failed"}
{"time":"2026-11-22T11:00:00Z","run_id":"r","type":"run.started"}
{"time":"2026-11-22T11:00:00.5Z","run_id":"r","type":"step.started","step":"call"}
{"time":"2026-11-22T11:00:00.6Z","run_id":"r/call","type":"run.started"}
{"time":"2026-11-22T11:00:00.7Z","run_id":"r/call","type":"step.started","step":"inner"}
{"time":"2026-11-22T11:00:00.8Z","run_id":"r/call","type":"step.finished","step":"inner","status":"succeeded"}
{"time":"2026-11-22T11:00:01Z","run_id":"r","type":"step.finished","step":"call","status":"succeeded"}
`
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	tl, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !tl.Start.Equal(t0.Add(time.Hour)) || len(tl.Spans) != 1 || tl.Spans[0].Step != "call" {
		t.Errorf("timeline %+v", tl)
	}
}

// TestTextCountsStepsInWords: the heading says "1 step", "3 steps", and
// an attempt in which no step ran (a resume that took none) says so
// instead of an empty chart.
func TestTextCountsStepsInWords(t *testing.T) {
	for _, tt := range []struct {
		spans []Span
		want  string
	}{
		{nil, "run r: no step ran in this attempt\n"},
		{[]Span{span("a", 0, 5*time.Millisecond, "succeeded")}, "run r: 5ms, 1 step\n"},
		{[]Span{span("a", 0, time.Millisecond, "succeeded"), span("b", 0, 2*time.Millisecond, "failed"), span("c", 0, 3*time.Millisecond, "cancelled")}, "run r: 3ms, 3 steps\n"},
	} {
		var b strings.Builder
		if err := Text(&b, "run r", Timeline{Start: t0, Spans: tt.spans}); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := strings.Cut(b.String(), "\n"); got+"\n" != tt.want || (tt.spans == nil && b.String() != tt.want) {
			t.Errorf("%d spans: %q, want it to begin %q", len(tt.spans), b.String(), tt.want)
		}
	}
}

// A log an older chainrun wrote with a step.log line for every line
// --verbose showed reads to the same timeline, its log lines passed over
// (a line of output that quotes an event is still output).
func TestReadPassesOverLogLines(t *testing.T) {
	var log strings.Builder
	log.WriteString(`{"v":1,"time":"2026-11-22T11:00:00Z","run_id":"r","type":"run.started"}` + "\n")
	log.WriteString(`{"v":1,"time":"2026-11-22T11:00:01Z","run_id":"r","type":"step.started","step":"a"}` + "\n")
	for i := range 3000 {
		fmt.Fprintf(&log, `{"v":1,"time":"2026-11-22T11:00:01Z","run_id":"r","type":"step.log","step":"a","line":"{\"type\":\"step.started\",\"step\":\"x%d\"}"}`+"\n", i)
	}
	log.WriteString(`{"v":1,"time":"2026-11-22T11:00:03Z","run_id":"r","type":"step.finished","step":"a","status":"succeeded"}` + "\n")
	log.WriteString(`{"v":1,"time":"2026-11-22T11:00:03Z","run_id":"r\",\"type\":\"step.log","type":"step.started","step":"b"}` + "\n")
	log.WriteString(`{"v":1,"time":"2026-11-22T11:00:04Z","run_id":"r\",\"type\":\"step.log","type":"step.finished","step":"b","status":"succeeded"}` + "\n")
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tl, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Spans) != 2 || tl.Spans[0].Step != "a" || tl.Spans[0].End.Sub(tl.Spans[0].Start) != 2*time.Second || tl.Spans[1].Step != "b" {
		t.Errorf("timeline %+v", tl.Spans)
	}
}
