package jsonstream

import (
	"bytes"
	"testing"
)

// A journal line is written for every step: the buffered writer and the
// encoders behind Write are kept between calls, so a small value costs a
// few small allocations, not a 64 KiB buffer each time.
func TestWriteReusesItsBuffer(t *testing.T) {
	type line struct {
		Type string `json:"type"`
		Step string `json:"step"`
		N    int    `json:"n"`
	}
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items at random")
	}
	var buf bytes.Buffer
	v := line{Type: "step.saved", Step: "build", N: 3}
	allocs := testing.AllocsPerRun(100, func() {
		buf.Reset()
		if err := Write(&buf, v, ""); err != nil {
			t.Fatal(err)
		}
	})
	if buf.String() != `{"type":"step.saved","step":"build","n":3}` {
		t.Fatalf("wrote %s", buf.String())
	}
	// one allocation is the value boxed into an interface; a fresh
	// writer and its encoders were five more (64 KiB of them)
	if allocs > 2 {
		t.Errorf("Write of a small value made %v allocations, want at most 2", allocs)
	}
}
