package chain

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/chainrun/chainrun/pkg/load/loadbench"
)

// BenchmarkLoad10k loads and validates a 10,000-step chain (target: under
// 200 ms).
func BenchmarkLoad10k(b *testing.B) {
	data := loadbench.Chain10k()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("big.yaml", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadWorkflow1000 loads and validates a 1,000-state workflow
// whose executors use conditions and templates, so that checking names
// against a large workflow stays linear.
func BenchmarkLoadWorkflow1000(b *testing.B) {
	var src strings.Builder
	src.WriteString("version: '1'\nworkflows:\n  long:\n    initialState: s0\n    states:\n")
	for i := range 1000 {
		fmt.Fprintf(&src, "      s%d:\n        transitions:\n          t%d:\n            target: s%d\n            actor: deterministic\n            condition: 'len(context) >= 0'\n            executor: {kind: transform, expr: 'len(string(%d)) + 1'}\n", i, i, i+1, i)
	}
	src.WriteString("      s1000: {terminal: true}\n")
	data := []byte(src.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("long.yaml", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadLayered500 loads and validates bench/gen's layered chain
// and reports, besides time and allocations, the heap a loaded chain
// keeps per step (B/step: live heap after a collection with the chain
// held, less the live heap before it was read). It is the figure a step
// holding only its own kind's body lowers (docs/performance.md).
func BenchmarkLoadLayered500(b *testing.B) {
	data := loadbench.Layered500()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("layered.yaml", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(retainedBy(b, func() any {
		l, err := Parse("layered.yaml", data, Options{})
		if err != nil {
			b.Fatal(err)
		}
		return l
	}))/500, "B/step")
	b.Logf("sizeof Step %d B, Compiled %d B", unsafe.Sizeof(Step{}), unsafe.Sizeof(Compiled{}))
}

// retainedBy is the live heap load's result keeps: measured after a
// collection before and after, with the result still referenced.
func retainedBy(b *testing.B, load func() any) uint64 {
	b.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := load()
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}
