package store

import (
	"context"
	"io"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render/progress"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// chatty is a chain of one step printing n short lines (seq n).
func chatty(tb testing.TB, n string) *chain.Chain {
	l, err := chain.Parse("chatty.yaml", []byte("name: chatty\nsteps:\n  - {id: out, type: cli, command: seq, args: ['"+n+"']}\n"), chain.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return l.Chain
}

// dirSize is the bytes of the files under dir.
func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		n += info.Size()
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkChattyStep is a saved run of a step printing a million lines,
// as chainrun runs it, without and with --verbose (its lines shown by
// the progress printer, stamped as in a log): -v must cost at most 1.5
// times the run without, and leave a run directory of at most 1.2 times
// the output (6.9 MB). It reports the run directory's size.
func BenchmarkChattyStep(b *testing.B) {
	c := chatty(b, "1000000")
	for _, verbose := range []bool{false, true} {
		name := "plain"
		if verbose {
			name = "verbose"
		}
		b.Run(name, func(b *testing.B) {
			st := Open(b.TempDir())
			var size int64
			for b.Loop() {
				printer := &progress.Printer{W: io.Discard, Verbose: verbose, Stamp: true}
				engine := run.New(run.WithDir(b.TempDir()), run.WithLogLines(verbose), run.WithEvents(printer))
				ss, err := st.Start(c, nil, false)
				if err != nil {
					b.Fatal(err)
				}
				res, err := ss.Drive(context.Background(), engine, run.Request{Chain: c})
				if err != nil || res.Status != record.Succeeded {
					b.Fatalf("%v %+v", err, res)
				}
				size = dirSize(b, st.runDir(res.RunID))
			}
			b.ReportMetric(float64(size), "run-dir-B")
		})
	}
}
