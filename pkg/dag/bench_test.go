package dag

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkRun10k schedules a 10,000-node DAG of no-op nodes (layers of
// 100, each node depending on two of the previous layer). The target is
// under 20 µs per node; ns/node is reported.
func BenchmarkRun10k(b *testing.B) {
	const n, width = 10000, 100
	nodes := make([]int, n)
	for i := range nodes {
		nodes[i] = i
	}
	g, err := New(nodes, func(i int) []int {
		if i < width {
			return nil
		}
		return []int{i - width, i - width + (i+1)%width - i%width}
	})
	if err != nil {
		b.Fatal(err)
	}
	visit := func(context.Context, int) Outcome { return Continue }
	b.ResetTimer()
	for b.Loop() {
		g.Run(context.Background(), 8, visit)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/node")
}

func BenchmarkNew10k(b *testing.B) {
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprint("s", i)
	}
	deps := func(k string) []string { return nil }
	for b.Loop() {
		if _, err := New(ids, deps); err != nil {
			b.Fatal(err)
		}
	}
}
