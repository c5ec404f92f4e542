package mask

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
)

// --verbose lines: every complete line once, CR stripped, and a line
// longer than maxLogLine in pieces that add up to it.
func TestLineEmitter(t *testing.T) {
	var got []string
	w := &LineEmitter{Emit: func(ls string) { got = append(got, batchLines(ls)...) }}
	long := strings.Repeat("x", 3*maxLogLine+5)
	input := "one\r\ntwo\n" + long + "\nthree"
	for i := 0; i < len(input); i += 4093 { // writes that split lines anywhere
		end := min(i+4093, len(input))
		if n, err := w.Write([]byte(input[i:end])); err != nil || n != end-i {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	w.Flush()
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
		w := &LineEmitter{Emit: func(string) {}}
		for range 512 {
			_, _ = w.Write(chunk)
		}
		w.Flush()
	}
}

// A secret in a line too long for one event is masked even where a
// piece would end inside it: no piece shows a part of it, and the pieces
// add up to the line masked.
func TestLineEmitterMasksASecretAcrossPieces(t *testing.T) {
	const secret = `Zq9-SeCrEt-"77xy"`
	m := New([]string{secret})
	b, _ := json.Marshal(secret)
	escaped := string(b[1 : len(b)-1])
	for _, tc := range []struct {
		name string
		line string
	}{
		{"across the first cut", strings.Repeat("A", maxLogLine-5) + secret + " tail"},
		{"its last byte past the cut", strings.Repeat("B", maxLogLine-len(secret)+1) + secret},
		{"its first byte at the cut", strings.Repeat("C", maxLogLine) + secret + strings.Repeat("c", 10)},
		{"across the second cut, JSON-escaped", strings.Repeat("D", 2*maxLogLine-7) + escaped + "\tend"},
		{"twice, once at each cut", strings.Repeat("E", maxLogLine-3) + secret + strings.Repeat("e", maxLogLine-len(secret)-9) + secret},
	} {
		for _, size := range []int{1 << 20, 4093, 7} {
			var got []string
			w := &LineEmitter{Emit: func(ls string) { got = append(got, batchLines(ls)...) }, Mask: m.Text, Hold: m.Longest() - 1}
			input := tc.line + "\n"
			for i := 0; i < len(input); i += size {
				_, _ = w.Write([]byte(input[i:min(i+size, len(input))]))
			}
			w.Flush()
			want := strings.ReplaceAll(strings.ReplaceAll(tc.line, secret, "***"), escaped, "***")
			if joined := strings.Join(got, ""); joined != want {
				t.Errorf("%s, writes of %d: the pieces do not add up to the masked line (%d pieces, %d bytes, want %d)", tc.name, size, len(got), len(joined), len(want))
			}
			for _, l := range got {
				if strings.Contains(l, "SeCr") || strings.Contains(l, "77xy") {
					t.Errorf("%s, writes of %d: a piece shows part of the secret", tc.name, size)
				}
			}
		}
	}
}

// seqOutput is what seq 1000000 prints (6.9 MB), cut as a pipe's reads
// of 64 KiB cut it.
func seqOutput() [][]byte {
	var all []byte
	for i := 1; i <= 1000000; i++ {
		all = strconv.AppendInt(all, int64(i), 10)
		all = append(all, '\n')
	}
	var reads [][]byte
	for len(all) > 0 {
		n := min(64<<10, len(all))
		reads, all = append(reads, all[:n]), all[n:]
	}
	return reads
}

// BenchmarkShortLinesVerbose: a million short lines through --verbose's
// line splitter, each read one batch; reports the events sent per read.
func BenchmarkShortLinesVerbose(b *testing.B) {
	reads := seqOutput()
	var events, lines int
	for b.Loop() {
		w := &LineEmitter{Emit: func(ls string) { events++; lines += strings.Count(ls, "\n") }}
		for _, r := range reads {
			_, _ = w.Write(r)
		}
		w.Flush()
	}
	if lines != 1000000*b.N {
		b.Fatalf("%d lines", lines)
	}
	b.ReportMetric(float64(events)/float64(b.N)/float64(len(reads)), "events/read")
}

// batchLines are the lines of a batch, as a step.log event gives them.
func batchLines(batch string) []string {
	e := event.Event{Lines: batch}
	return e.LogLines()
}
