package run

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// BenchmarkLocal10k runs a 10,000-step chain of in-process no-op steps
// (transforms) through the whole engine: scheduling, conditions, variable
// store, events. The target is under 20 µs per step; µs/step is reported.
func BenchmarkLocal10k(b *testing.B) {
	const n, width = 10000, 100
	var src strings.Builder
	src.WriteString("name: big\nsteps:\n")
	for i := range n {
		fmt.Fprintf(&src, "  - {id: s%d, type: transform, expr: 'true', output_var: v%d", i, i)
		if i >= width {
			fmt.Fprintf(&src, ", depends_on: [s%d]", i-width)
		}
		src.WriteString("}\n")
	}
	c := load(b, src.String())
	e := New(WithParallel(8))
	b.ResetTimer()
	for b.Loop() {
		res, err := e.Run(context.Background(), Request{Chain: c})
		if err != nil || res.Status != record.Succeeded {
			b.Fatalf("%v %v", err, res.Error)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/step")
}
