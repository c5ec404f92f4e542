package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/dag"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/task"
)

// taskRunner is a dag.Runner on goroutines, as a durable engine's
// coroutines would run the visits.
type taskRunner struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan [2]int
}

func (r *taskRunner) Start(i int, visit func(ctx context.Context) dag.Outcome) {
	go func() { r.done <- [2]int{i, int(visit(r.ctx))} }()
}
func (r *taskRunner) Next() (int, dag.Outcome) { f := <-r.done; return f[0], dag.Outcome(f[1]) }
func (r *taskRunner) Cancel()                  { r.cancel() }

// remoteEngine drives runs with Remote, each step a task of worker,
// retried the way a durable engine retries them.
func remoteEngine(c *chain.Chain, worker *Local, calls *[]string, opts ...Option) *Local {
	var mu sync.Mutex
	r := &task.Remote{
		Runner: func(ctx context.Context) dag.Runner {
			ctx, cancel := context.WithCancel(ctx)
			return &taskRunner{ctx: ctx, cancel: cancel, done: make(chan [2]int, 64)}
		},
		Step: func(ctx context.Context, t task.StepTask) task.StepDone {
			mu.Lock()
			*calls = append(*calls, t.Step)
			mu.Unlock()
			t = viaJSON(t) // as a durable engine's payloads carry it
			if !task.RetriedByEngine(task.TaskStep(c, t)) {
				return viaJSON(worker.RunTask(ctx, c, t))
			}
			for n := 1; ; n++ {
				t.Attempt = n
				done := viaJSON(worker.RunTask(ctx, c, t))
				if !done.Retry {
					return done
				}
			}
		},
	}
	return New(append(opts, WithRemote(r))...)
}

// comparable is what must be the same of a run, wherever its steps ran.
func comparable(res *record.Result) map[string]any {
	steps := map[string]string{}
	for _, s := range res.Steps {
		steps[s.ID] = string(s.Status) + "|" + s.Reason + "|" + s.Error
	}
	return map[string]any{"status": res.Status, "error": res.Error, "output": res.Output, "steps": steps, "vars": res.Vars}
}

func TestRemoteRunsAsLocal(t *testing.T) {
	flaky := filepath.Join(t.TempDir(), "count")
	cases := map[string]string{
		"deps, conditions and outputs": `
name: t
steps:
  - id: a
    type: cli
    run: echo '{"n":2}'
    output_var: a
  - {id: b, type: cli, run: echo big, depends_on: [a], condition: "a.n > 1", output_var: b}
  - {id: c, type: cli, run: echo small, depends_on: [a], condition: "a.n < 1", output_var: c}
  - {id: d, type: transform, depends_on: [b, c], expr: 'b + "!"', output_var: d}
output: d
`,
		"failure stops the rest": `
name: t
steps:
  - {id: a, type: cli, run: "exit 3"}
  - {id: b, type: cli, run: echo b, depends_on: [a]}
  - {id: c, type: cli, run: sleep 5}
`,
		"continue on error and early exit": `
name: t
steps:
  - {id: a, type: cli, run: "exit 1", continue_on_error: true, output_var: a}
  - {id: b, type: cli, run: echo done, depends_on: [a], output_var: b, early_exit_if: 'b == "done"'}
  - {id: c, type: cli, run: echo never, depends_on: [b]}
`,
		"retries made by the engine": `
name: t
steps:
  - id: a
    type: cli
    run: "n=$(cat ` + flaky + ` 2>/dev/null || echo 0); echo $((n+1)) > ` + flaky + `; test $n -ge 2 && echo ok"
    retry: {max: 4, delay_ms: 1}
    output_var: a
output: a
`,
		"a gate pauses": `
name: t
steps:
  - {id: a, type: cli, run: echo a}
  - {id: g, type: gate, prompt: "ship it?", depends_on: [a]}
  - {id: b, type: cli, run: echo b, depends_on: [g]}
`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			c := load(t, src)
			dir := t.TempDir()
			_ = os.Remove(flaky)
			local, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c})
			if err != nil {
				t.Fatal(err)
			}
			_ = os.Remove(flaky)
			var calls []string
			remote, err := remoteEngine(c, New(WithDir(dir)), &calls).Run(context.Background(), Request{Chain: c})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := comparable(remote), comparable(local); !reflect.DeepEqual(got, want) {
				t.Errorf("remote run differs from local:\n got %v\nwant %v", got, want)
			}
			if len(calls) == 0 {
				t.Error("no step ran as a task")
			}
		})
	}
}

func TestRemoteWorkflowPausesAndTakes(t *testing.T) {
	c := load(t, `
workflows:
  ship:
    initialState: build
    inputSchema: {type: object, properties: {service: {type: string}}, required: [service]}
    states:
      build:
        transitions:
          run_build: {target: ready, actor: deterministic, executor: {kind: cli, command: echo, args: ["built $.input.service"]}}
      ready:
        transitions:
          deploy: {target: done, actor: agent, executor: {kind: cli, command: echo, args: ["deployed"]}}
          abort: {target: stopped, actor: human}
      done: {terminal: true}
      stopped: {terminal: true}
`)
	var calls []string
	j := &memJournal{}
	eng := remoteEngine(c, New(WithDir(t.TempDir())), &calls)
	first, err := eng.Run(context.Background(), Request{Chain: c, Inputs: map[string]string{"service": "api"}, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != record.Paused {
		t.Fatalf("status %s (%s), want paused", first.Status, first.Error)
	}
	second, err := eng.Run(context.Background(), Request{Chain: c, RunID: first.RunID, Inputs: map[string]string{"service": "api"},
		Journal: j, Resume: saved(j), History: j.transitions, Take: "deploy"})
	if err != nil {
		t.Fatal(err)
	}
	if second.Status != record.Succeeded {
		t.Fatalf("status %s (%s), want succeeded", second.Status, second.Error)
	}
	if !reflect.DeepEqual(calls, []string{"run_build", "deploy"}) {
		t.Errorf("tasks %v, want run_build then deploy, each once", calls)
	}
}

// saved is a journal's steps by id, as a resume reads them.
func saved(j *memJournal) map[string]record.StepRecord {
	out := map[string]record.StepRecord{}
	for _, rec := range j.done {
		out[rec.Result.ID] = rec
	}
	return out
}

// viaJSON is v after a trip through JSON.
func viaJSON[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}
