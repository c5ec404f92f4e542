package temporalrun

import (
	"fmt"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/runtest"
)

// TestWorkflowShapes runs the table of shapes every engine runs alike
// (pkg/run/runtest) on the chain workflow, in the SDK's test environment:
// the run, then each turn as the take update the CLI's resume sends, an
// hour apart; each turn is judged by the state query that follows it (or
// by the workflow's result when the run ended) and by the update's
// refusal. The local engine runs the same table (pkg/run).
func TestWorkflowShapes(t *testing.T) { runtest.Run(t, temporalTurns) }

func temporalTurns(t *testing.T, c *chain.Chain, dir string, inputs map[string]string, turns []runtest.Turn) []runtest.Seen {
	env := newEnv(t, dir)
	in := Start{RunID: "20261124-100000-000-abcdef", File: c.File, Source: c.Source, Name: c.Name, Inputs: inputs, Parallel: 4}
	seen := make([]runtest.Seen, len(turns))
	fired := 0
	for i := 1; i <= len(turns); i++ {
		env.RegisterDelayedCallback(func() {
			fired = i
			if seen[i-1].Err == nil {
				v, err := env.QueryWorkflow(QueryState)
				var st State
				if err == nil {
					err = v.Get(&st)
				}
				if err != nil {
					t.Errorf("state query after turn %d: %v", i-1, err)
				}
				seen[i-1].Result = st.Result
			}
			if i == len(turns) {
				env.CancelWorkflow()
				return
			}
			turn := turns[i]
			env.UpdateWorkflow(UpdateTake, fmt.Sprint(i), &testsuite.TestUpdateCallback{
				OnReject: func(err error) { seen[i].Err = refused(err) },
				OnAccept: func() {},
				OnComplete: func(_ any, err error) {
					if err != nil {
						seen[i].Err = refused(err)
					}
				},
			}, Take{Take: turn.Take, Args: turn.Args, Acks: turn.Acks, Rerun: turn.Rerun})
		}, time.Duration(i)*time.Hour)
	}
	env.ExecuteWorkflow(WorkflowName, in)
	if fired < len(turns) {
		// the run ended after turn fired-1's take: its result is the turn's
		var res record.Result
		if err := env.GetWorkflowResult(&res); err != nil {
			seen[fired].Err = err
		} else {
			seen[fired].Result = &res
		}
	}
	return seen
}
