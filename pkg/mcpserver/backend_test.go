package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// memBackend runs chains on the real engine and keeps runs in memory,
// each its own journal: the Backend cmd builds over the state directory,
// without the directory.
type memBackend struct {
	dir    string
	engine run.Engine
	mu     sync.Mutex
	runs   map[string]*memRun
}

var _ Backend = (*memBackend)(nil)

func newMemBackend(dir string) *memBackend {
	return &memBackend{dir: dir, engine: run.New(run.WithGrace(time.Second)), runs: map[string]*memRun{}}
}

// memRun is one run: its chain, inputs, journal and last result.
type memRun struct {
	mu     sync.Mutex
	c      *chain.Chain
	inputs map[string]string
	steps  map[string]record.StepRecord
	trans  []record.TransitionRecord
	res    *record.Result
	// args are the arguments of each take, in order.
	args []map[string]any
}

func (m *memRun) StepStarted(string) error { return nil }

func (m *memRun) StepFinished(rec record.StepRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.steps[rec.Result.ID] = rec
	return nil
}

func (m *memRun) Transition(rec record.TransitionRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.trans = append(m.trans, rec)
	return nil
}

func (b *memBackend) Catalog() (*catalog.Catalog, error) {
	return catalog.Open(b.dir, chain.Options{})
}

func (b *memBackend) Start(ctx context.Context, name string, inputs map[string]string, events event.Sink) (*record.Result, error) {
	cat, err := b.Catalog()
	if err != nil {
		return nil, err
	}
	l, err := cat.Find(name)
	if err != nil {
		return nil, err
	}
	id := run.NewRunID(time.Now())
	// as the state directory, it keeps no secret input
	kept := map[string]string{}
	for k, v := range inputs {
		if in := l.Chain.Input(k); in == nil || !in.Secret {
			kept[k] = v
		}
	}
	r := &memRun{c: l.Chain, inputs: kept, steps: map[string]record.StepRecord{}}
	b.mu.Lock()
	b.runs[id] = r
	b.mu.Unlock()
	res, err := b.engine.Run(ctx, run.Request{RunID: id, Chain: l.Chain, Inputs: inputs, Journal: r, Events: events})
	if err != nil {
		b.mu.Lock()
		delete(b.runs, id)
		b.mu.Unlock()
		return nil, err
	}
	r.mu.Lock()
	r.res = res
	r.mu.Unlock()
	return res, nil
}

func (b *memBackend) Resume(ctx context.Context, id string, d Decision, events event.Sink) (*record.Result, error) {
	r := b.run(id)
	if r == nil {
		return nil, fmt.Errorf("no run %q", id)
	}
	r.mu.Lock()
	inputs := maps.Clone(r.inputs)
	maps.Copy(inputs, d.Secrets)
	for _, in := range r.c.Inputs {
		if _, ok := inputs[in.Name]; in.Secret && !ok {
			r.mu.Unlock()
			return nil, &secretsGone{name: in.Name}
		}
	}
	req := run.Request{RunID: id, Chain: r.c, Inputs: inputs, Resume: r.steps, History: append([]record.TransitionRecord{}, r.trans...),
		Take: d.Take, Args: d.Args, Acks: d.Acks, Journal: r, Events: events}
	r.args = append(r.args, d.Args)
	r.mu.Unlock()
	res, err := b.engine.Run(ctx, req)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.res = res
	r.mu.Unlock()
	return res, nil
}

func (b *memBackend) run(ref string) *memRun {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, r := range b.runs {
		if id == ref || strings.HasSuffix(id, ref) {
			return r
		}
	}
	return nil
}

func (b *memBackend) Get(ref string) (*Saved, error) {
	r := b.run(ref)
	if r == nil {
		return nil, fmt.Errorf("no run %q (chainrun runs lists them)", ref)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	sv := &Saved{Name: r.c.Name, Status: event.Running, Version: len(r.trans) + len(r.steps), Result: r.res, Chain: r.c}
	b.mu.Lock()
	for id, x := range b.runs {
		if x == r {
			sv.RunID = id
		}
	}
	b.mu.Unlock()
	if r.res != nil {
		sv.Status = r.res.Status
	}
	return sv, nil
}

// secretsGone is the store's refusal of a resume without a secret input.
type secretsGone struct{ name string }

func (e *secretsGone) Error() string       { return "--input " + e.name + "=VALUE is needed again" }
func (e *secretsGone) Plain() string       { return "the secret input " + e.name + " is needed again" }
func (e *secretsGone) NeedsTerminal() bool { return true }
