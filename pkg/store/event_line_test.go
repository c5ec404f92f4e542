package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/jsonstream"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestEventLineIsJSONMarshal holds the hand-written event encoder to
// json.Marshal's bytes: every field of event.Event set (a field added to
// the schema and not to appendEvent fails here), each left empty in turn
// (omitempty), and strings that need every kind of escape.
func TestEventLineIsJSONMarshal(t *testing.T) {
	hard := []string{"plain", "", "quote \" back \\ slash", "<tag> & amp", "\x00\x01\b\f\n\r\t\x1f", "bad \xff\xfe utf-8", "é ✓ \u2028 \u2029 😀", strings.Repeat("x", 70000)}
	full := func(s string, n int) event.Event {
		var e event.Event
		v := reflect.ValueOf(&e).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.String:
				f.SetString(s + v.Type().Field(i).Name)
			case reflect.Int, reflect.Int64:
				f.SetInt(int64(n + i))
			case reflect.Struct: // the time
				f.Set(reflect.ValueOf(time.Date(2026, 11, 24, 12, 0, 0, n, time.FixedZone("x", 3600))))
			case reflect.Slice, reflect.Pointer: // the record, the cost and the unpriced, left to json.Marshal
			default:
				t.Fatalf("field %s of kind %s: teach appendEvent and this test", v.Type().Field(i).Name, f.Kind())
			}
		}
		return e
	}
	check := func(e event.Event) {
		t.Helper()
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendEvent([]byte("prefix"), &e)
		if !ok || string(got) != "prefix"+string(want) {
			t.Fatalf("appendEvent:\n got %.300s\nwant prefix%.300s", got, want)
		}
	}
	for n, s := range hard {
		e := full(s, n*1000)
		check(e)
		v := reflect.ValueOf(&e).Elem()
		for i := 1; i < v.NumField(); i++ { // each member left out
			one := e
			reflect.ValueOf(&one).Elem().Field(i).SetZero()
			check(one)
		}
	}
	check(event.Event{})
	check(event.Event{Time: time.Now(), Type: event.StepStarted, Attempt: -3, PID: -1})
	withRecord := event.Event{Record: json.RawMessage(`{ "a" : 1 }`)}
	if _, ok := appendEvent(nil, &withRecord); ok {
		t.Error("a record is left to json.Marshal, which compacts it")
	}
	cost := 0.000125
	for _, e := range []event.Event{{CostUSD: &cost}, {Unpriced: []string{"x/y"}}} {
		if _, ok := appendEvent(nil, &e); ok {
			t.Errorf("%+v: a cost is left to json.Marshal, which writes floats its own way", e)
		}
	}
}

// TestJournalLineIsUnchanged: a journal line written from the event's
// members and the record gives the bytes jsonstream.Write gave of the
// whole line, for a step's record, a transition's and none.
func TestJournalLineIsUnchanged(t *testing.T) {
	score := 0.5
	recs := []any{
		nil,
		record.StepRecord{Result: record.StepResult{ID: "s<1>", Status: record.StepSucceeded, Attempts: 2, DurationMS: 7, Usage: &record.Usage{InputTokens: 3}, Score: &score, Stderr: "bad \xff"},
			Output: &record.SavedValue{Text: "out & \u2028", Data: map[string]any{"b": []any{1.5, "x"}, "a": nil}, Masked: true}, HTTPStatus: 201},
		record.TransitionRecord{From: "a", Transition: "go", To: "b", Vars: map[string]record.SavedValue{"v": {Text: "t"}}, Context: map[string]any{"k": "v"}},
		(*record.StepRecord)(nil),
	}
	for i, rec := range recs {
		e := event.Event{V: event.SchemaVersion, Time: time.Date(2026, 11, 24, 1, 2, 3, 4, time.UTC), RunID: "r", Type: event.StepSaved, Step: "s<1>", State: "a"}
		var want, got bytes.Buffer
		if err := jsonstream.Write(&want, journalLine{Event: e, Record: rec}, ""); err != nil {
			t.Fatal(err)
		}
		if err := writeJournalLine(&got, &e, rec); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("record %d:\n got %s\nwant %s", i, got.String(), want.String())
		}
	}
}
