package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// callerAndCallee is a chain whose step `sub` calls chain `inner`: inner's
// first step counts its runs, its second fails until the file ok exists.
func callerAndCallee(t *testing.T) (*chain.Chain, ChainResolver) {
	inner := load(t, `
name: inner
steps:
  - {id: count, type: cli, run: 'echo x >> runs.txt; echo counted', output_var: c}
  - {id: check, type: cli, run: 'test -f ok && echo checked', depends_on: [count], output_var: k}
  - {id: ship, type: cli, run: 'echo shipped', depends_on: [check], idempotent: false, output_var: s}
output: s
`)
	outer := load(t, `
name: outer
steps:
  - {id: sub, type: chain, chain: inner, output_var: r}
output: r
`)
	return outer, func(name, _ string) (*chain.Chain, error) {
		if name == "inner" {
			return inner, nil
		}
		return nil, errors.New("no such chain")
	}
}

func recordsOf(j *memJournal) map[string]record.StepRecord {
	out := map[string]record.StepRecord{}
	for _, r := range j.done {
		out[r.Result.ID] = r
	}
	return out
}

// TestCalledChainStepsAreKeptOneByOne: a resumed run keeps the steps its
// called chain finished (saved as sub/count) and runs only the rest.
func TestCalledChainStepsAreKeptOneByOne(t *testing.T) {
	c, resolve := callerAndCallee(t)
	dir := t.TempDir()
	e := New(WithDir(dir), WithChains(resolve))
	j := &memJournal{}
	res, err := e.Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Failed {
		t.Fatalf("%v %s", err, res.Status)
	}
	saved := recordsOf(j)
	if _, ok := saved["sub/count"]; !ok {
		t.Fatalf("the callee's step was not saved as sub/count: %v", saved)
	}
	os.WriteFile(filepath.Join(dir, "ok"), nil, 0o644)
	res, err = e.Run(context.Background(), Request{Chain: c, Journal: j, Resume: saved})
	if err != nil || res.Status != record.Succeeded || res.Output != "shipped" {
		t.Fatalf("resume: %v %s %s", err, res.Status, res.Error)
	}
	if runs, _ := os.ReadFile(filepath.Join(dir, "runs.txt")); strings.Count(string(runs), "x") != 1 {
		t.Errorf("count ran %d times", strings.Count(string(runs), "x"))
	}
}

// TestCalledChainsNonIdempotentStepNeedsRerun: a callee's step that is
// not idempotent and may have started stops the resume until confirmed
// as --rerun sub/ship.
func TestCalledChainsNonIdempotentStepNeedsRerun(t *testing.T) {
	c, resolve := callerAndCallee(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok"), nil, 0o644)
	e := New(WithDir(dir), WithChains(resolve))
	started := map[string]bool{"sub/ship": true}
	_, err := e.Run(context.Background(), Request{Chain: c, Started: started, Journal: &memJournal{}})
	var re *response.RerunError
	if !errors.As(err, &re) || re.Steps[0] != "sub/ship" {
		t.Fatalf("err %v", err)
	}
	res, err := e.Run(context.Background(), Request{Chain: c, Started: started, Rerun: map[string]bool{"sub/ship": true}, Journal: &memJournal{}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %s", err, res.Status)
	}
}

func TestChainStepCannotCallAWorkflow(t *testing.T) {
	wfc := load(t, "version: '1'\nworkflows:\n  w:\n    initialState: a\n    states:\n      a: {terminal: true}\n")
	c := load(t, "name: outer\nsteps:\n  - {id: sub, type: chain, chain: w}\n")
	_, err := New(WithChains(func(string, string) (*chain.Chain, error) { return wfc, nil })).Run(context.Background(), Request{Chain: c})
	var ce *response.PreflightError
	if !errors.As(err, &ce) || ce.Kind != response.BadCall || !strings.Contains(err.Error(), "is a state workflow") {
		t.Fatalf("err %v", err)
	}
}
