package event

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// TestSchemaFieldNames pins the JSON names of the event schema: tools
// depend on them, so they may be added to but never renamed.
func TestSchemaFieldNames(t *testing.T) {
	e := Event{V: SchemaVersion, Time: time.Unix(0, 0).UTC(), RunID: "r", Type: StepFinished, Chain: "c", Step: "s",
		Kind: "cli", Attempt: 2, Status: "failed", Stream: "stderr", Line: "l", Error: "e", DurationMS: 5, Detail: "d", Model: "p/m", InputTokens: 3, OutputTokens: 4}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":1,"time":"1970-01-01T00:00:00Z","run_id":"r","type":"step.finished","chain":"c","step":"s","kind":"cli","attempt":2,"status":"failed","stream":"stderr","line":"l","error":"e","duration_ms":5,"detail":"d","model":"p/m","input_tokens":3,"output_tokens":4}`
	if string(b) != want {
		t.Errorf("event JSON changed:\n got %s\nwant %s", b, want)
	}
}

func TestRecorderAndMulti(t *testing.T) {
	var a, b Recorder
	Multi{&a, &b, Discard}.Emit(Event{Type: RunStarted})
	if len(a.Events()) != 1 || len(b.Events()) != 1 {
		t.Fatal("Multi did not forward to every sink")
	}
}

// TestStreamedFieldNames pins the names of what --verbose's batches and
// their count add to the schema.
func TestStreamedFieldNames(t *testing.T) {
	e := Event{V: SchemaVersion, Time: time.Unix(0, 0).UTC(), RunID: "r", Type: StepStreamed, Step: "s", Stream: "stdout", Lines: "a\nb\n", LineCount: 2, Bytes: 4}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":1,"time":"1970-01-01T00:00:00Z","run_id":"r","type":"step.streamed","step":"s","stream":"stdout","lines":"a\nb\n","line_count":2,"bytes":4}`
	if string(b) != want {
		t.Errorf("event JSON changed:\n got %s\nwant %s", b, want)
	}
}

// A step.log event's lines are its batch's, without their newlines, an
// empty line and an unended last one included; or its one Line.
func TestLogLines(t *testing.T) {
	for _, tc := range []struct {
		e    Event
		want []string
	}{
		{Event{Lines: "a\n\nb\n"}, []string{"a", "", "b"}},
		{Event{Lines: "\n"}, []string{""}},
		{Event{Lines: "a\nlast"}, []string{"a", "last"}},
		{Event{Line: "one"}, []string{"one"}},
		{Event{}, []string{""}},
	} {
		var each []string
		tc.e.EachLogLine(func(l string) { each = append(each, l) })
		if got := tc.e.LogLines(); !slices.Equal(got, tc.want) || !slices.Equal(each, tc.want) {
			t.Errorf("%+v: LogLines %q, EachLogLine %q, want %q", tc.e, got, each, tc.want)
		}
	}
}
