package run_test

import (
	"context"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/resume"
	"github.com/chainrun/chainrun/pkg/run/runtest"
)

// TestWorkflowShapes runs the table of shapes every engine runs alike
// (pkg/run/runtest) on the local engine: a run, then a resume a turn from
// its journal; the Temporal engine runs the same table.
func TestWorkflowShapes(t *testing.T) { runtest.Run(t, localTurns) }

func localTurns(t *testing.T, c *chain.Chain, dir string, inputs map[string]string, turns []runtest.Turn) []runtest.Seen {
	l := run.New(run.WithDir(dir))
	j := &runtest.Journal{}
	id := run.NewRunID(time.Now())
	var out []runtest.Seen
	var err error
	for i, turn := range turns {
		req := run.Request{Chain: c, RunID: id, Inputs: inputs, Journal: j, Dir: dir}
		if i > 0 {
			req.Resume, req.History = j.Resume()
			req.Take, req.Args, req.Acks, req.Started = turn.Take, turn.Args, turn.Acks, j.Started()
			if len(turn.Rerun) > 0 {
				if req.Rerun, err = resume.RerunSet(c, turn.Rerun); err != nil {
					t.Fatal(err)
				}
			}
		}
		res, err := l.Run(context.Background(), req)
		out = append(out, runtest.Seen{Result: res, Err: err})
	}
	return out
}
