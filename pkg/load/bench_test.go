package load_test

import (
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/load/loadbench"
)

// BenchmarkLoadPeak reports what a load through this package (every
// command's) holds at its peak, as a multiple of the file's size
// (peak/file: the most heap the load's objects took, live or not yet
// collected, less the heap before it began; issue 31's target is 15), and
// in MiB. Each load starts after a collection, as a command's does on a
// heap that holds little else.
func BenchmarkLoadPeak(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{{"10k", loadbench.Chain10k()}, {"layered500", loadbench.Layered500()}} {
		b.Run(c.name, func(b *testing.B) {
			var sum uint64
			for b.Loop() {
				sum += loadbench.PeakHeap(func() {
					if _, err := load.Parse(c.name+".yaml", c.data, chain.Options{}); err != nil {
						b.Fatal(err)
					}
				})
			}
			b.ReportMetric(float64(sum)/float64(b.N)/float64(len(c.data)), "peak/file")
			b.ReportMetric(float64(sum)/float64(b.N)/(1<<20), "peak-MiB")
		})
	}
}
