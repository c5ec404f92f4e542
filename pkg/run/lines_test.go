package run

import (
	"strings"
	"testing"
)

// --verbose lines: every complete line once, CR stripped, and a line
// longer than maxLogLine in pieces that add up to it.
func TestLineEmitter(t *testing.T) {
	var got []string
	w := &lineEmitter{emit: func(l string) { got = append(got, l) }}
	long := strings.Repeat("x", 3*maxLogLine+5)
	input := "one\r\ntwo\n" + long + "\nthree"
	for i := 0; i < len(input); i += 4093 { // writes that split lines anywhere
		end := min(i+4093, len(input))
		if n, err := w.Write([]byte(input[i:end])); err != nil || n != end-i {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	w.flush()
	if len(got) != 7 || got[0] != "one" || got[1] != "two" || got[6] != "three" {
		t.Fatalf("lines: %d, first %q %q, last %q", len(got), got[0], got[1], got[len(got)-1])
	}
	if joined := strings.Join(got[2:6], ""); joined != long {
		t.Errorf("the long line came out as %d bytes, want %d", len(joined), len(long))
	}
	for _, l := range got[2:5] {
		if len(l) != maxLogLine {
			t.Errorf("a piece of %d bytes, want %d", len(l), maxLogLine)
		}
	}
}

// BenchmarkLongLineVerbose: a 16 MiB line through --verbose's line
// splitter in 32 KiB writes; linear in the bytes.
func BenchmarkLongLineVerbose(b *testing.B) {
	chunk := []byte(strings.Repeat("y", 32<<10))
	for b.Loop() {
		w := &lineEmitter{emit: func(string) {}}
		for range 512 {
			_, _ = w.Write(chunk)
		}
		w.flush()
	}
}
