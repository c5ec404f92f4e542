package loadbench

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"
)

// Chain10k is a 10,000-step chain (1.3 MB): layers of 100 cli steps,
// each reading the output of two steps of the layer before, one in ten
// with a condition.
func Chain10k() []byte {
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

// Layered500 is bench/gen's layered workload (20 layers of 25 cli steps,
// each waiting for the whole layer before) as bench/gen writes it for
// chainrun.
func Layered500() []byte {
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

// PeakHeap runs load after a collection and returns the most heap its
// objects took above what was there before (live or not yet collected:
// what the process must hold), sampling the runtime's count of heap
// object bytes every 50 µs until load returns. A peak between two samples
// is missed.
func PeakHeap(load func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	note := func() {
		if v := read(); v > peak.Load() {
			peak.Store(v)
		}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	tick := time.NewTicker(50 * time.Microsecond) // one allocation, not one a sample
	defer tick.Stop()
	go func() {
		defer close(done)
		for {
			note()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	load()
	close(stop)
	<-done
	note()
	return max(peak.Load(), base) - base
}
