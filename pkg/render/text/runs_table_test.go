package text

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/store"
)

func tableRuns(n int, name func(i int) string) []store.Record {
	var out []store.Record
	for i := range n {
		out = append(out, store.Record{RunID: fmt.Sprintf("20261101-%06d-000-abcdef", n-i), Name: name(i), Status: event.Succeeded, DurationMS: int64(i), Dir: "/p"})
	}
	return out
}

// TestRunsTableStreams: up to a block of runs, the table is Runs's to
// the byte; past it, the first block goes out before the rest come, and
// every later row keeps the block's columns (a wider cell pushes only
// its own row).
func TestRunsTableStreams(t *testing.T) {
	for _, n := range []int{0, 1, 7, tableBlock} {
		recs := tableRuns(n, func(i int) string { return strings.Repeat("c", i%9+1) })
		var want, got bytes.Buffer
		Runs(&want, ListedRuns(recs))
		tb := NewRunsTable(&got)
		for _, r := range recs {
			tb.Add(r)
		}
		if err := tb.Close(); err != nil || got.String() != want.String() || tb.Len() != n {
			t.Errorf("%d runs: got\n%s\nwant\n%s", n, got.String(), want.String())
		}
	}
	recs := tableRuns(tableBlock+3, func(i int) string {
		if i == tableBlock+1 {
			return "a-much-longer-chain-name"
		}
		return "short"
	})
	var out bytes.Buffer
	tb := NewRunsTable(&out)
	for i, r := range recs {
		if i == tableBlock && !strings.Contains(out.String(), recs[tableBlock-1].RunID) {
			t.Fatal("the first block was not written before the next run came")
		}
		tb.Add(r)
	}
	tb.Close()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != tableBlock+4 {
		t.Fatalf("%d lines", len(lines))
	}
	col := strings.Index(lines[1], "succeeded")
	for _, i := range []int{tableBlock + 1, tableBlock + 3} {
		if strings.Index(lines[i], "succeeded") != col {
			t.Errorf("row %d left the block's columns:\n%s\n%s", i, lines[1], lines[i])
		}
	}
	if l := lines[tableBlock+2]; !strings.Contains(l, "a-much-longer-chain-name  succeeded") {
		t.Errorf("a wider cell: %q", l)
	}
}
