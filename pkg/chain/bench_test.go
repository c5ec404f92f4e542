package chain

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// chain10k is a 10,000-step chain: layers of 100 cli steps, each reading
// the output of two steps of the layer before.
func chain10k() []byte {
	var b strings.Builder
	b.WriteString("name: big\ninputs: [{name: topic}]\nsteps:\n")
	const width = 100
	for i := range 10000 {
		fmt.Fprintf(&b, "  - id: s%d\n    type: cli\n    command: echo\n    output_var: v%d\n", i, i)
		if i < width {
			b.WriteString("    args: [\"{input.topic}\"]\n")
			continue
		}
		a, c := i-width, i-width+(i+1)%width-i%width
		fmt.Fprintf(&b, "    depends_on: [s%d, s%d]\n    args: [\"{v%d}\", \"{v%d}\"]\n", a, c, a, c)
		if i%10 == 0 {
			fmt.Fprintf(&b, "    condition: '{v%d} != \"stop\"'\n", a)
		}
	}
	b.WriteString("output: v9999\n")
	return []byte(b.String())
}

// BenchmarkLoad10k loads and validates a 10,000-step chain (target: under
// 200 ms).
func BenchmarkLoad10k(b *testing.B) {
	data := chain10k()
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

// layered500 is bench/gen's layered workload (20 layers of 25 cli steps,
// each waiting for the whole layer before) as bench/gen writes it for
// chainrun.
func layered500() []byte {
	var b strings.Builder
	b.WriteString("name: layered\nsteps:\n")
	var prev []string
	for l := 1; l <= 20; l++ {
		var cur []string
		for i := 1; i <= 25; i++ {
			id := fmt.Sprintf("l%d_%d", l, i)
			fmt.Fprintf(&b, "  - id: %s\n    type: cli\n    command: \"true\"\n", id)
			if len(prev) > 0 {
				fmt.Fprintf(&b, "    depends_on: [%s]\n", strings.Join(prev, ", "))
			}
			cur = append(cur, id)
		}
		prev = cur
	}
	return []byte(b.String())
}

// BenchmarkLoadLayered500 loads and validates bench/gen's layered chain
// and reports, besides time and allocations, the heap a loaded chain
// keeps per step (B/step: live heap after a collection with the chain
// held, less the live heap before it was read). It is the figure a step
// holding only its own kind's body lowers (docs/performance.md).
func BenchmarkLoadLayered500(b *testing.B) {
	data := layered500()
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

// BenchmarkLoadPeak reports what a load holds at its peak, as a multiple
// of the file's size (peak/file: the most heap the load's objects took,
// live or not yet collected, less the heap before it began; issue 31's
// target is 15). Each load starts after a collection, as a command's does
// on a heap that holds little else. It is sampled, not exact: a peak
// between two samples 50 µs apart is missed.
func BenchmarkLoadPeak(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{{"10k", chain10k()}, {"layered500", layered500()}} {
		b.Run(c.name, func(b *testing.B) {
			var sum uint64
			for b.Loop() {
				sum += peakHeap(func() {
					if _, err := Parse(c.name+".yaml", c.data, Options{}); err != nil {
						b.Fatal(err)
					}
				})
			}
			b.ReportMetric(float64(sum)/float64(b.N)/float64(len(c.data)), "peak/file")
			b.ReportMetric(float64(sum)/float64(b.N)/(1<<20), "peak-MiB")
		})
	}
}

// peakHeap runs load after a collection and returns the most heap its
// objects took above what was there before, sampling the runtime's count
// of heap object bytes (live and unswept) until load returns.
func peakHeap(load func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Microsecond):
			}
		}
	}()
	load()
	close(stop)
	<-done
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	if peak.Load() < base {
		return 0
	}
	return peak.Load() - base
}
