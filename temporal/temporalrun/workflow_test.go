package temporalrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/load"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// newEnv is a test workflow environment with the chain workflow and a
// worker's step activity, its steps run in dir.
func newEnv(t *testing.T, dir string) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(ChainWorkflow, workflow.RegisterOptions{Name: WorkflowName})
	steps := &Steps{Engine: run.New(run.WithDir(dir))}
	env.RegisterActivityWithOptions(steps.Run, activity.RegisterOptions{Name: StepActivity})
	return env
}

// startOf is the workflow input of a chain file.
func startOf(t *testing.T, path string, inputs map[string]string) Start {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := load.Parse(path, src, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Start{RunID: "20261124-100000-000-abcdef", File: path, Source: src, Name: loaded.Chain.Name, Inputs: inputs, Parallel: 4}
}

func writeChain(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDAGChainRunsAsLocally(t *testing.T) {
	path := writeChain(t, `
name: diamond
steps:
  - {id: a, type: cli, run: 'echo 2', output_var: a}
  - {id: b, type: cli, run: 'echo "b{a}"', depends_on: [a], output_var: b}
  - {id: c, type: transform, expr: 'int(a) * 10', depends_on: [a], output_var: c}
  - {id: d, type: cli, run: 'echo "{b}-{c}"', depends_on: [b, c], output_var: d, condition: 'c > 5'}
  - {id: e, type: cli, run: 'echo never', depends_on: [d], condition: 'c < 5'}
output: d
`)
	dir := t.TempDir()
	in := startOf(t, path, nil)
	local, err := run.New(run.WithDir(dir)).Run(context.Background(), run.Request{Chain: mustParse(t, in), RunID: in.RunID})
	if err != nil {
		t.Fatal(err)
	}
	env := newEnv(t, dir)
	var ids []string
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		ids = append(ids, info.ActivityID)
	})
	env.ExecuteWorkflow(WorkflowName, in)
	var res record.Result
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != local.Status || res.Output != local.Output {
		t.Fatalf("status %s output %v, want %s %v (local)", res.Status, res.Output, local.Status, local.Output)
	}
	if res.Output != "b2-20" {
		t.Errorf("output %v, want b2-20 (%s %s)", res.Output, res.Status, res.Error)
	}
	for i, s := range res.Steps {
		if s.Status != local.Steps[i].Status || s.Reason != local.Steps[i].Reason {
			t.Errorf("step %s: %s %q, want %s %q", s.ID, s.Status, s.Reason, local.Steps[i].Status, local.Steps[i].Reason)
		}
	}
	// c is a transform: a local activity; the others are activities
	// named by their step
	if got := strings.Join(ids, ","); got != "a,b,d,e" && got != "a,b,e,d" && !strings.HasPrefix(got, "a,") {
		t.Errorf("activity ids %s, want the step ids", got)
	}
}

func mustParse(t *testing.T, in Start) *chain.Chain {
	t.Helper()
	c, err := parse(in.File, in.Source, in.Name, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRetriesAreActivityRetries(t *testing.T) {
	dir := t.TempDir()
	path := writeChain(t, `
name: flaky
steps:
  - id: a
    type: cli
    run: "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; test $n -ge 2 && echo ok"
    retry: {max: 4, delay_ms: 10}
    output_var: a
  - id: once
    type: cli
    run: "exit 1"
    idempotent: false
    continue_on_error: true
output: a
`)
	env := newEnv(t, dir)
	attempts := map[string]int{}
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		attempts[info.ActivityID] = int(info.Attempt)
	})
	env.ExecuteWorkflow(WorkflowName, startOf(t, path, nil))
	var res record.Result
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.Output != "ok" {
		t.Fatalf("status %s output %v (%s)", res.Status, res.Output, res.Error)
	}
	if attempts["a"] != 3 {
		t.Errorf("step a's activity ran %d attempts, want 3 (two failures, then ok)", attempts["a"])
	}
	if attempts["once"] != 1 {
		t.Errorf("idempotent: false step ran %d attempts, want 1", attempts["once"])
	}
}

func TestDeployPausesForTheTakeUpdate(t *testing.T) {
	path, _ := filepath.Abs("../../chains/deploy.yaml")
	env := newEnv(t, t.TempDir())
	in := startOf(t, path, map[string]string{"service": "payment-api"})
	rejected, accepted := "", false
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryState)
		if err != nil {
			t.Errorf("state query: %v", err)
			return
		}
		var st State
		_ = v.Get(&st)
		if st.Status != record.Paused {
			t.Errorf("state %s, want paused at the decision", st.Status)
		}
		env.UpdateWorkflow(UpdateTake, "u1", &testsuite.TestUpdateCallback{
			OnReject:   func(err error) { rejected = err.Error() },
			OnAccept:   func() { t.Error("an unknown transition was accepted") },
			OnComplete: func(any, error) {},
		}, Take{Take: "launch"})
		env.UpdateWorkflow(UpdateTake, "u2", &testsuite.TestUpdateCallback{
			OnReject:   func(err error) { t.Errorf("deploy rejected: %v", err) },
			OnAccept:   func() { accepted = true },
			OnComplete: func(any, error) {},
		}, Take{Take: "deploy"})
	}, time.Hour)
	env.ExecuteWorkflow(WorkflowName, in)
	var res record.Result
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rejected, "--take launch") || !strings.Contains(rejected, "deploy") {
		t.Errorf("rejection %q, want it to name launch and the choices", rejected)
	}
	if !accepted || res.Status != record.Succeeded {
		t.Fatalf("accepted %v, status %s (%s), want deploy taken and the run succeeded", accepted, res.Status, res.Error)
	}
}

func TestCancelStopsRunningSteps(t *testing.T) {
	path := writeChain(t, `
name: slow
steps:
  - {id: wait, type: cli, run: 'sleep 30'}
  - {id: after, type: cli, run: 'echo after', depends_on: [wait]}
`)
	env := newEnv(t, t.TempDir())
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Second)
	start := time.Now()
	env.ExecuteWorkflow(WorkflowName, startOf(t, path, nil))
	var res record.Result
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Interrupted {
		t.Errorf("status %s, want interrupted", res.Status)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("the cancelled step ran on for %s", time.Since(start))
	}
}
