package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSSEReader(t *testing.T) {
	r := newSSEReader(strings.NewReader(": hi\n\nevent: a\ndata: 1\ndata:2\nid: 7\n\ndata: {}\r\n\r\nevent: b\ndata: cut"))
	for _, want := range []sseEvent{{"a", []byte("1\n2")}, {"", []byte("{}")}} {
		ev, err := r.next()
		if err != nil || ev.name != want.name || string(ev.data) != string(want.data) {
			t.Fatalf("got %q %q %v, want %q %q", ev.name, ev.data, err, want.name, want.data)
		}
	}
	if _, err := r.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a stream cut inside an event: %v", err)
	}
	if _, err := newSSEReader(strings.NewReader("data: x\n\n")).next(); err != nil {
		t.Fatal(err)
	}
	r = newSSEReader(strings.NewReader("\n\n"))
	if _, err := r.next(); err != io.EOF {
		t.Errorf("an empty stream: %v", err)
	}
	huge := "data: " + strings.Repeat("x", maxEvent+1) + "\n\n"
	if _, err := newSSEReader(strings.NewReader(huge)).next(); !errors.Is(err, errEventTooLarge) {
		t.Errorf("an event over the cap: %v", err)
	}
}
