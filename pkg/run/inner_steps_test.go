package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
	"github.com/chainrun/chainrun/pkg/run/resume"
)

// savedAs is what a store gives a resume of the run j journaled: the
// last record of each step (through JSON, as saved), and the steps marked
// begun that never finished reusably.
func savedAs(j *memJournal) (map[string]record.StepRecord, map[string]bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	recs := map[string]record.StepRecord{}
	for _, r := range j.done {
		b, _ := json.Marshal(r)
		var back record.StepRecord
		json.Unmarshal(b, &back)
		recs[r.Result.ID] = back
	}
	started := map[string]bool{}
	for _, id := range j.started {
		started[id] = true
	}
	for id, r := range recs {
		if r.Reusable() {
			delete(started, id)
		}
	}
	return recs, started
}

// lines counts the lines of file name in dir.
func lines(t *testing.T, dir, name string) int {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, name))
	return strings.Count(string(b), "\n")
}

// TestInnerStepsFinishedAreKeptOnRetry: a branch of a parallel executor,
// a step of a pipeline executor and a step of a DAG chain's pipeline
// step that is not idempotent and finished while a sibling failed is
// kept, with its output, when the run is resumed: it runs once.
func TestInnerStepsFinishedAreKeptOnRetry(t *testing.T) {
	for name, tc := range map[string]struct{ src, output string }{
		"parallel executor": {`
version: "1"
workflows:
  w:
    initialState: s
    states:
      s:
        transitions:
          pay:
            target: done
            actor: deterministic
            executor:
              kind: parallel
              on_branch_failure: continue
              branches:
                - {kind: cli, command: sh, args: ["-c", "echo x >> effects.log; echo paid"], idempotent: false}
                - {kind: cli, command: sh, args: ["-c", "test -f ready && echo ready"]}
            output: {first: "$.output.branches[0].output"}
      done: {terminal: true}
`, "paid"},
		"pipeline executor": {`
version: "1"
workflows:
  w:
    initialState: s
    states:
      s:
        transitions:
          ship:
            target: done
            actor: deterministic
            executor:
              kind: pipeline
              steps:
                - {kind: cli, command: sh, args: ["-c", "echo x >> effects.log; echo '{\"v\": 41}'"], idempotent: false}
                - {kind: transform, expr: 'arguments.v + 1'}
                - {kind: cli, command: sh, args: ["-c", "test -f ready && echo built"]}
            output: {first: "$.output.steps[1].output"}
      done: {terminal: true}
`, "42"},
		"DAG pipeline step": {`
name: d
steps:
  - id: rel
    type: pipeline
    output_var: r
    steps:
      - {type: cli, run: 'echo x >> effects.log; echo released', idempotent: false}
      - {type: cli, run: 'test -f ready && echo ok'}
  - {id: out, type: transform, expr: 'r.steps[0].output', depends_on: [rel], output_var: o}
output: o
`, "released"},
		"pipeline inside a parallel branch": {`
name: d
steps:
  - id: par
    type: parallel
    output_var: r
    branches:
      - type: pipeline
        steps:
          - {type: cli, run: 'echo x >> effects.log; echo inner', idempotent: false}
          - {type: cli, run: 'test -f ready && echo ok'}
      - {type: cli, run: 'echo other'}
  - {id: out, type: transform, expr: 'r.branches[0].output.steps[0].output', depends_on: [par], output_var: o}
output: o
`, "inner"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			c := load(t, tc.src)
			e := New(WithDir(dir))
			j := &memJournal{}
			res, err := e.Run(context.Background(), Request{Chain: c, Journal: j})
			if err != nil || res.Status != record.Failed {
				t.Fatalf("first call: %v %v", err, res.Status)
			}
			os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			recs, started := savedAs(j)
			res, err = e.Run(context.Background(), Request{Chain: c, Journal: j, Resume: recs, Started: started, History: j.transitions})
			if err != nil || res.Status != record.Succeeded {
				t.Fatalf("resume: %v %+v", err, res)
			}
			if n := lines(t, dir, "effects.log"); n != 1 {
				t.Errorf("the non-idempotent step ran %d times", n)
			}
			got := res.Output
			if res.WorkflowResult != nil {
				got = res.Context["first"]
			}
			if b, _ := json.Marshal(got); strings.Trim(string(b), `"`) != tc.output {
				t.Errorf("output %s, want %s (the kept step's output)", b, tc.output)
			}
		})
	}
}

// TestInnerStepBegunNeedsRerun: killed while a non-idempotent branch ran
// (marked begun, never saved), a resume is refused naming it, with the
// command that confirms it; a sibling that finished is kept even then.
func TestInnerStepBegunNeedsRerun(t *testing.T) {
	src := `
version: "1"
workflows:
  w:
    initialState: s
    states:
      s:
        transitions:
          go:
            target: done
            actor: agent
            executor:
              kind: parallel
              branches:
                - {kind: cli, command: sh, args: ["-c", "echo x >> charge.log"], idempotent: false}
                - {kind: cli, command: sh, args: ["-c", "echo y >> mail.log"], idempotent: false}
      done: {terminal: true}
`
	dir := t.TempDir()
	c := load(t, src)
	e := New(WithDir(dir))
	// as a store reads a run killed after go[1] finished, while go[0] ran
	done := record.StepRecord{Result: record.StepResult{ID: "go[1]", Status: record.StepSucceeded}, Output: &record.SavedValue{Text: ""}}
	req := Request{Chain: c, RunID: "20260101-000000-abcd", Take: "go", Journal: &memJournal{},
		Resume: map[string]record.StepRecord{"go[1]": done}, Started: map[string]bool{"go[0]": true}}
	_, err := e.Run(context.Background(), req)
	var re *response.RerunError
	if !errors.As(err, &re) || !slices.Equal(re.Steps, []string{"go[0]"}) || !strings.Contains(re.Command, "--take go --rerun 'go[0]'") {
		t.Fatalf("err %v (%+v)", err, re)
	}
	if lines(t, dir, "charge.log")+lines(t, dir, "mail.log") != 0 {
		t.Fatal("a refused resume ran a branch")
	}
	rerun, err := resume.RerunSet(c, []string{"go[0]"})
	if err != nil {
		t.Fatalf("--rerun go[0]: %v", err)
	}
	req.Rerun = rerun
	res, err := e.Run(context.Background(), req)
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("confirmed: %v %+v", err, res)
	}
	if lines(t, dir, "charge.log") != 1 || lines(t, dir, "mail.log") != 0 {
		t.Errorf("charge ran %d times, mail %d (want 1, 0: kept)", lines(t, dir, "charge.log"), lines(t, dir, "mail.log"))
	}
	if _, err := resume.RerunSet(c, []string{"nope[0]"}); err == nil {
		t.Error("--rerun of a step the chain lacks was accepted")
	}
}

// TestInnerStepsRunAgainAtANewVisit: a state visited twice runs its
// executor's branches each time; only a retry of the same visit keeps
// them.
func TestInnerStepsRunAgainAtANewVisit(t *testing.T) {
	src := `
version: "1"
workflows:
  w:
    initialState: s
    initialContext: {n: 0}
    states:
      s:
        transitions:
          go:
            target: t
            actor: deterministic
            executor:
              kind: parallel
              branches:
                - {kind: cli, command: sh, args: ["-c", "echo x >> effects.log"], idempotent: false}
            output: {n: {add: ["$.context.n", 1]}}
      t:
        transitions:
          again: {target: s, actor: deterministic, condition: 'context.n < 2'}
          stop: {target: done, actor: deterministic, condition: 'context.n >= 2'}
      done: {terminal: true}
`
	dir := t.TempDir()
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, src), Journal: &memJournal{}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
	if n := lines(t, dir, "effects.log"); n != 2 {
		t.Errorf("the branch ran %d times in two visits", n)
	}
}

// TestInnerStepRetryLinkConfirmsIt: a transition that failed in a
// non-idempotent branch, pipeline step or called workflow's branch offers
// the retry that confirms it, and a resume from the journal takes exactly
// that retry.
func TestInnerStepRetryLinkConfirmsIt(t *testing.T) {
	sub := `
  sub:
    initialState: a
    states:
      a:
        transitions:
          sx:
            target: b
            actor: deterministic
            executor:
              kind: parallel
              branches:
                - {kind: cli, command: sh, args: ["-c", "echo x >> effects.log; test -f ready"], idempotent: false}
      b: {terminal: true}
`
	for _, tc := range []struct{ name, executor, want string }{
		{"a parallel's branch", `{kind: parallel, on_branch_failure: continue, branches: [{kind: cli, command: sh, args: ["-c", "echo x >> effects.log; test -f ready"], idempotent: false}, {kind: noop}]}`,
			"chainrun resume RUN --take go --rerun 'go[0]'"},
		{"a pipeline's step", `{kind: pipeline, steps: [{kind: noop}, {kind: cli, command: sh, args: ["-c", "echo x >> effects.log; test -f ready"], idempotent: false}]}`,
			"chainrun resume RUN --take go --rerun 'go[1]'"},
		{"a called workflow's branch", `{kind: workflow, definitionId: sub}`,
			"chainrun resume RUN --take go --rerun 'go/sx[0]'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `
version: "1"
workflows:
  w:
    initialState: s
    states:
      s:
        goal: Go?
        transitions:
          go: {target: done, actor: human, executor: ` + tc.executor + `}
      done: {terminal: true}
` + sub
			dir := t.TempDir()
			c := load(t, src)
			e := New(WithDir(dir))
			j := &memJournal{}
			res, err := e.Run(context.Background(), Request{Chain: c, RunID: "RUN", Take: "go", Journal: j})
			if err != nil || res.Status != record.Failed || len(res.Links) != 1 {
				t.Fatalf("%v %+v", err, res)
			}
			l := res.Links[0]
			reruns := l.Reruns
			if got := response.ResumeCommand("RUN", l.Transition, reruns...); got != tc.want {
				t.Fatalf("retry %s, want %s", got, tc.want)
			}
			os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			recs, started := savedAs(j)
			rerun, err := resume.RerunSet(c, reruns)
			if err != nil {
				t.Fatal(err)
			}
			res, err = e.Run(context.Background(), Request{Chain: c, RunID: "RUN", Take: l.Transition, Rerun: rerun, Journal: j, Resume: recs, Started: started, History: j.transitions})
			if err != nil || res.Status != record.Succeeded {
				t.Fatalf("the printed retry: %v %+v", err, res)
			}
		})
	}
}

// TestInnerStepsAcrossAttempts: a pipeline step retried in the same call
// (retry: after its timeout) keeps its non-idempotent steps that
// finished, and runs its idempotent ones again; resumed, it takes the
// saved records once: the second attempt runs the idempotent ones afresh
// and keeps the non-idempotent ones.
func TestInnerStepsAcrossAttempts(t *testing.T) {
	done := func(id, out string) record.StepRecord {
		return record.StepRecord{Result: record.StepResult{ID: id, Status: record.StepSucceeded, Attempts: 1}, Output: &record.SavedValue{Text: out}}
	}
	for _, tc := range []struct {
		name             string
		attempts         int
		saved            map[string]record.StepRecord
		charged, fetched int
	}{
		{"a fresh run, three attempts", 3, nil, 1, 3},
		{"resumed, two attempts", 2, map[string]record.StepRecord{"rel[0]": done("rel[0]", "charged"), "rel[1]": done("rel[1]", "fetched")}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf(`
name: d
steps:
  - id: rel
    type: pipeline
    retry: {max: %d, delay_ms: 1}
    timeout_ms: 400
    steps:
      - {type: cli, run: 'echo x >> charged.log; echo charged', idempotent: false}
      - {type: cli, run: 'echo x >> fetched.log; echo fetched'}
      - {type: cli, run: 'echo x >> tries.log; test $(wc -l < tries.log) -ge %d || sleep 5'}
`, tc.attempts, tc.attempts)
			dir := t.TempDir()
			j := &memJournal{}
			res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, src), Journal: j, Resume: tc.saved})
			if err != nil || res.Status != record.Succeeded {
				t.Fatalf("%v %+v", err, res)
			}
			if lines(t, dir, "charged.log") != tc.charged || lines(t, dir, "fetched.log") != tc.fetched {
				t.Errorf("charged %d times, fetched %d; want %d, %d", lines(t, dir, "charged.log"), lines(t, dir, "fetched.log"), tc.charged, tc.fetched)
			}
			if tc.charged > 0 && !slices.Contains(j.started, "rel[0]") {
				t.Errorf("the non-idempotent step was not marked begun: %v", j.started)
			}
		})
	}
}
