package temporalrun

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/runtest"
)

// TestWorkflowShapesOnARealServer runs the table of shapes every engine
// runs alike (pkg/run/runtest) through the Engine the CLI uses, on a real
// Temporal dev server with a worker of its own for each case: Run, then
// Take (an empty one for a plain resume) and Wait a turn, as resume
// does.
func TestWorkflowShapesOnARealServer(t *testing.T) {
	addr := devServer(t)
	cl, err := client.Dial(client.Options{HostPort: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	n := 0
	runtest.Run(t, func(t *testing.T, c *chain.Chain, dir string, inputs map[string]string, turns []runtest.Turn) []runtest.Seen {
		n++
		queue := fmt.Sprintf("shapes-%d", n)
		w := worker.New(cl, queue, worker.Options{})
		Register(w, &Steps{Engine: run.New(run.WithDir(dir))})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		e := &Engine{Client: cl, Namespace: DefaultNamespace, TaskQueue: queue, Poll: 50 * time.Millisecond}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var seen []runtest.Seen
		res, err := e.Run(ctx, run.Request{Chain: c, Inputs: inputs})
		seen = append(seen, runtest.Seen{Result: res, Err: err})
		if err != nil {
			return seen
		}
		id := res.RunID
		for _, turn := range turns[1:] {
			err := e.Take(ctx, id, Take{Take: turn.Take, Args: turn.Args, Acks: turn.Acks, Rerun: turn.Rerun})
			var res *record.Result
			if err == nil {
				res, err = e.Wait(ctx, id, nil)
			}
			seen = append(seen, runtest.Seen{Result: res, Err: err})
		}
		if res, err := e.Show(ctx, id); err == nil && res.Status != record.Succeeded {
			_ = e.Cancel(ctx, id)
		}
		return seen
	})
}
