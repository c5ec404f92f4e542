package event

import (
	"encoding/json"
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
