package run

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// BenchmarkForEach10k measures what a for_each item costs against a
// separate step doing the same work: 10,000 in-process items (a
// transform, so no process start hides the engine's own cost) of one
// for_each step, and the same 10,000 transforms as separate steps, two
// at a time as `--max-parallel 2` runs them. µs/item is reported; the
// loop's must not exceed the steps'.
func BenchmarkForEach10k(b *testing.B) {
	benchLoopAgainstSteps(b, 10000, "type: transform, expr: 'item', output_var: out", func(i int) string {
		return fmt.Sprintf("type: transform, expr: '\"%d\"', output_var: v%d", i, i)
	})
}

// BenchmarkForEachTrue1k is the same with a process per item: 1,000
// items of `true` against 1,000 separate `true` steps.
func BenchmarkForEachTrue1k(b *testing.B) {
	benchLoopAgainstSteps(b, 1000, "type: cli, command: 'true'", func(int) string {
		return "type: cli, command: 'true'"
	})
}

// benchLoopAgainstSteps runs a for_each over n items whose step has the
// given body, and n separate steps with step(i)'s body, at parallelism 2.
func benchLoopAgainstSteps(b *testing.B, n int, each string, step func(i int) string) {
	list := make([]string, n)
	for i := range list {
		list[i] = fmt.Sprint(i)
	}
	loop := "name: loop\ninputs: [{name: items}]\nsteps:\n  - {id: each, for_each: '{input.items}', " + each + "}\n"
	var steps strings.Builder
	steps.WriteString("name: steps\nsteps:\n")
	for i := range n {
		fmt.Fprintf(&steps, "  - {id: s%d, %s}\n", i, step(i))
	}
	for _, c := range []struct {
		name, src string
		inputs    map[string]string
	}{{"loop", loop, map[string]string{"items": strings.Join(list, "\n")}}, {"steps", steps.String(), nil}} {
		b.Run(c.name, func(b *testing.B) {
			ch := load(b, c.src)
			e := New(WithParallel(2))
			b.ResetTimer()
			for b.Loop() {
				res, err := e.Run(context.Background(), Request{Chain: ch, Inputs: c.inputs})
				if err != nil || res.Status != record.Succeeded {
					b.Fatalf("%v %+v", err, res)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/item")
		})
	}
}
