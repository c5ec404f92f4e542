package store

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// bigOutputs is a chain of n steps that each print size bytes (kept in
// memory: under the 8 MiB a step keeps, so also in the journal and the
// result), and a last step that fails, so that the run can be resumed.
func bigOutputs(b *testing.B, n, size int) *chain.Chain {
	var src strings.Builder
	src.WriteString("name: big\nsteps:\n")
	var ids []string
	for i := range n {
		fmt.Fprintf(&src, "  - {id: s%d, type: cli, run: 'head -c %d /dev/zero | tr \"\\\\0\" a', output_var: o%d}\n", i, size, i)
		ids = append(ids, fmt.Sprintf("s%d", i))
	}
	fmt.Fprintf(&src, "  - {id: gate, type: cli, run: 'exit 1', depends_on: [%s]}\n", strings.Join(ids, ", "))
	l, err := chain.Parse("big.yaml", []byte(src.String()), chain.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return l.Chain
}

// allocated is how many bytes the process has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// BenchmarkBigOutputs measures what a run with big outputs allocates, per
// byte of output, as it runs and is saved (journal and result), and as
// each reader of a saved run reads it: a resume (which restores every
// output), Load (the result, for -o json) and Summary (runs show). A run
// must keep each output once (1 byte per byte); everything else it
// allocates becomes garbage, which a collector lets grow to as much
// again before it runs, so it shows in the peak memory.
func BenchmarkBigOutputs(b *testing.B) {
	const n, size = 16, 2 << 20
	c := bigOutputs(b, n, size)
	out := float64(n * size)
	st := Open(b.TempDir())
	runOnce := func() string {
		ss, err := st.Start(c, nil, false)
		if err != nil {
			b.Fatal(err)
		}
		res, err := ss.Drive(context.Background(), run.New(run.WithDir(b.TempDir())), run.Request{Chain: c})
		if err != nil || res.Status != record.Failed || len(res.Vars) != n {
			b.Fatalf("%v %+v", err, res)
		}
		return res.RunID
	}
	id := runOnce() // the saved run the readers read
	b.Run("run", func(b *testing.B) {
		var bytes uint64
		for b.Loop() {
			before := allocated()
			runOnce()
			bytes += allocated() - before
		}
		b.ReportMetric(float64(bytes)/float64(b.N)/out, "alloc-B/output-B")
	})
	reads := []struct {
		name string
		read func() (*Saved, error)
	}{
		{"resume", func() (*Saved, error) {
			r, sv, err := st.Resume(id)
			if err == nil {
				r.Close()
			}
			return sv, err
		}},
		{"load", func() (*Saved, error) { return st.Load(id) }},
		{"summary", func() (*Saved, error) { return st.Summary(id) }},
	}
	for _, r := range reads {
		b.Run(r.name, func(b *testing.B) {
			var bytes uint64
			for b.Loop() {
				before := allocated()
				if _, err := r.read(); err != nil {
					b.Fatal(err)
				}
				bytes += allocated() - before
			}
			b.ReportMetric(float64(bytes)/float64(b.N)/out, "alloc-B/output-B")
		})
	}
}
