package run

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/interrupt"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// busySteps are steps caught in every kind of work when the run stops
// around them: each touches the file "started" in the run's directory
// once it is busy, and would then stay busy for a long time.
func busySteps(t *testing.T, dir string) (map[string]string, []Option) {
	touch := func() { _ = os.WriteFile(filepath.Join(dir, "started"), nil, 0o644) }
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		touch()
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	models := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		switch r.LastUserMessage() {
		case "bash":
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: `{"command": "touch started; sleep 30"}`}}}
		case "nap":
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "nap"}}}
		}
		touch()
		return llmtest.Reply{Delay: time.Minute}
	})
	t.Cleanup(models.Close)
	sleeper := load(t, "name: sleeper\nsteps: [{id: nap, type: cli, run: 'touch started; sleep 30'}]\n")
	resolve := func(string, string) (*chain.Chain, error) { return sleeper, nil }
	steps := map[string]string{
		"a command":            `{id: busy, type: cli, run: 'touch started; sleep 30'}`,
		"an agent's pre_tools": `{id: busy, model: openai/m, prompt: "{p}", pre_tools: [{type: shell, run: 'touch started; sleep 30', inject_as: p}]}`,
		"an http pre_tool":     `{id: busy, type: transform, expr: 'p', pre_tools: [{type: http, url: '` + hang.URL + `', inject_as: p}]}`,
		"an http request":      `{id: busy, type: http, url: '` + hang.URL + `'}`,
		"a model request":      `{id: busy, model: openai/m, prompt: hi}`,
		"a tool call":          `{id: busy, model: openai/m, prompt: bash, tools: [Bash]}`,
		"a chain's own tool":   `{id: busy, model: openai/m, prompt: nap, tools: [nap]}`,
		"a called chain":       `{id: busy, type: chain, chain: sleeper}`,
		"a loop's items":       `{id: busy, type: cli, for_each: '{list}', run: 'touch started; sleep 30', depends_on: [list]}`,
	}
	return steps, []Option{WithModels(registryFor(models, nil)), WithChains(resolve), WithGrace(200 * time.Millisecond)}
}

// leaksGo fails the test when Go's own words for a cancelled context, or
// any of wrong, reach anything a user reads: the result or an event.
func leaksGo(t *testing.T, res *record.Result, evs []event.Event, wrong ...string) {
	t.Helper()
	shown, _ := json.Marshal(res)
	texts := []string{string(shown)}
	for _, e := range evs {
		texts = append(texts, string(e.Type)+" "+e.Step+": "+e.Error+" "+e.Detail)
	}
	for _, text := range texts {
		for _, word := range append([]string{"context canceled", "deadline exceeded"}, wrong...) {
			if strings.Contains(text, word) {
				t.Errorf("%q reaches the user: %s", word, text)
			}
		}
	}
}

// chainOf is a chain of steps, with a tool of its own (nap).
func chainOf(steps string) string {
	return `name: t
tools:
  nap:
    description: Sleep
    executor: {kind: cli, run: 'touch started; sleep 30'}
steps:
  - ` + steps + "\n"
}

// withList is busy, after the list step its loop reads when it is a loop.
func withList(busy string) string {
	if !strings.Contains(busy, "for_each") {
		return busy
	}
	return `{id: list, type: cli, command: echo, args: ['["a", "b"]'], output_var: list}` + "\n  - " + busy
}

func TestSiblingFailureCancelsEveryKindOfWorkAlike(t *testing.T) {
	dir := t.TempDir()
	steps, opts := busySteps(t, dir)
	for what, busy := range steps {
		t.Run(what, func(t *testing.T) {
			_ = os.Remove(filepath.Join(dir, "started"))
			rec := &event.Recorder{}
			res := runChain(t, chainOf(withList(busy)+`
  - {id: bad, type: cli, run: 'while [ ! -e started ]; do sleep 0.01; done; exit 1'}
`), nil, append(opts, WithDir(dir), WithEvents(rec))...)
			if res.Status != record.Failed || !strings.HasPrefix(res.Error, "step bad failed") {
				t.Fatalf("run %s: %s", res.Status, res.Error)
			}
			if s := step(t, res, "busy"); s.Status != record.StepCancelled || s.Error != "cancelled: step bad failed" {
				t.Errorf("busy = %+v", s)
			}
			for _, e := range rec.Events() {
				if e.Type == event.StepFinished && e.Step == "busy" && e.RunID == res.RunID && e.Status != record.StepCancelled {
					t.Errorf("step.finished says %s", e.Status)
				}
			}
			// nothing was interrupted: a step failed
			leaksGo(t, res, rec.Events(), "interrupted")
		})
	}
}

// cancelOnceStarted is a context cancelled (an interrupt) once the file
// "started" appears in dir.
func cancelOnceStarted(t *testing.T, dir string) context.Context {
	_ = os.Remove(filepath.Join(dir, "started"))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return ctx
}

func TestInterruptSaysInterruptedWhateverTheStepDid(t *testing.T) {
	dir := t.TempDir()
	steps, opts := busySteps(t, dir)
	for what, busy := range steps {
		t.Run(what, func(t *testing.T) {
			ctx := cancelOnceStarted(t, dir)
			rec := &event.Recorder{}
			c := load(t, chainOf(withList(busy)))
			res, err := New(append(opts, WithDir(dir), WithEvents(rec))...).Run(ctx, Request{Chain: c})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != record.Interrupted {
				t.Fatalf("run %s: %s", res.Status, res.Error)
			}
			if s := step(t, res, "busy"); s.Error != "interrupted" {
				t.Errorf("busy = %+v", s)
			}
			leaksGo(t, res, rec.Events())
		})
	}
}

func TestInterruptDuringAnAgentDecision(t *testing.T) {
	dir := t.TempDir()
	_, opts := busySteps(t, dir)
	ctx := cancelOnceStarted(t, dir)
	rec := &event.Recorder{}
	res, err := New(append(opts, WithDir(dir), WithEvents(rec))...).Run(ctx, Request{Chain: load(t, decisionWorkflow), AgentModel: "openai/m"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Interrupted || res.Error != "interrupted" {
		t.Errorf("run %s: %s", res.Status, res.Error)
	}
	leaksGo(t, res, rec.Events())
}

// TestStopIsAnnouncedAndForceKillsAtOnce holds that a run told to stop
// says so at once (run.stopping), that forcing it (a second Ctrl-C) is
// said too and kills a step that ignores TERM without waiting out its
// grace (an hour here), and that nothing is announced after run.finished.
func TestStopIsAnnouncedAndForceKillsAtOnce(t *testing.T) {
	dir := t.TempDir()
	ctx, stop, force := interrupt.WithStop(context.Background())
	defer stop()
	var sent sync.Once
	rec := &event.Recorder{}
	watch := event.Func(func(e event.Event) {
		rec.Emit(e)
		if e.Type == event.RunStopping {
			sent.Do(force) // the second Ctrl-C, once the first was heard
		}
	})
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
				stop()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	res, err := New(WithDir(dir), WithEvents(watch), WithGrace(time.Hour)).Run(ctx, Request{Chain: load(t, `
name: t
steps: [{id: stubborn, type: cli, run: "trap '' TERM; touch started; while :; do sleep 0.05; done"}]
`)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Interrupted {
		t.Fatalf("run %s: %s", res.Status, res.Error)
	}
	var told []string
	for _, e := range rec.Events() {
		if e.Type == event.RunStopping || e.Type == event.RunFinished {
			told = append(told, string(e.Type)+" "+e.Detail)
		}
	}
	if want := []string{"run.stopping ", "run.stopping forced", "run.finished "}; !slices.Equal(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}
}
