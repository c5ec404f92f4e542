package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// chainOf1000States is a deterministic workflow of n states in a line,
// each left by a transition whose executor is a transform (an executor
// that costs next to nothing, so the runtime's own cost shows).
func chainOf1000States(b *testing.B, n int) *chain.Chain {
	var src strings.Builder
	fmt.Fprintf(&src, "version: '1'\nworkflows:\n  long:\n    initialState: s0\n    maxChainDepth: %d\n    states:\n", n+1)
	for i := range n {
		fmt.Fprintf(&src, "      s%d:\n        transitions:\n          t%d:\n            target: s%d\n            actor: deterministic\n            executor: {kind: transform, expr: '%d'}\n", i, i, i+1, i)
	}
	fmt.Fprintf(&src, "      s%d: {terminal: true}\n", n)
	l, err := chain.Parse("long.yaml", []byte(src.String()), chain.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return l.Chain
}

// BenchmarkWorkflow1000States measures the runtime's overhead per
// transition of a 1,000-state deterministic chain, with every transition
// saved durably (fsync) in a run directory, as a real run does.
func BenchmarkWorkflow1000States(b *testing.B) {
	const n = 1000
	c := chainOf1000States(b, n)
	for _, durable := range []bool{true, false} {
		name := "saved"
		if !durable {
			name = "unsaved"
		}
		b.Run(name, func(b *testing.B) {
			st := Open(b.TempDir())
			i := 0
			for b.Loop() {
				i++
				req := run.Request{Chain: c, RunID: run.NewRunID(time.Now())}
				var sink event.Sink = event.Discard
				if durable {
					r, err := st.Create(Record{RunID: fmt.Sprintf("20260101-000000-%03d-%06x", i%1000, i), Name: "long"}, nil)
					if err != nil {
						b.Fatal(err)
					}
					req.Journal, req.RunID, sink = r, r.ID(), r
					defer r.Close()
				}
				res, err := run.New(run.WithEvents(sink)).Run(context.Background(), req)
				if err != nil || res.Status != record.Succeeded || len(res.Chain) != n {
					b.Fatalf("%v %s %s", err, res.Status, res.Error)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/transition")
		})
	}
}
