package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// executorFlow is a workflow whose state a runs the executor given (its
// fields indented under executor:) with the output mappings given, then
// ends at b.
func executorFlow(initialContext, executor, output string) string {
	return flowOf("", "      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            executor:\n"+
		indentBy(strings.TrimRight(executor, "\n"), "              ")+"            output:\n"+indentBy(strings.TrimRight(output, "\n"), "              ")+
		"      b: {terminal: true}\n")
}

// withContext adds initialContext to a workflow of flowOf.
func withContext(src, initialContext string) string {
	if initialContext == "" {
		return src
	}
	return strings.Replace(src, "    initialState: a\n", "    initialContext: "+initialContext+"\n    initialState: a\n", 1)
}

func TestPipelineExecutor(t *testing.T) {
	ok := "{kind: cli, command: echo, args: ['{\"n\": 2, \"tag\": \"v1\"}']}"
	cases := []struct {
		name, executor string
		status         record.Status
		want           []string // in the error and the context, as JSON
		ran, notRan    []string // files the steps leave in the run's directory
	}{
		{"each step reads the one before", "kind: pipeline\nsteps:\n  - " + ok + "\n  - {kind: cli, command: sh, args: [-c, 'echo $1 > second; printf ''{\"doubled\": %d}'' $(( $1 * 2 ))', sh, \"$.arguments.n\"]}\n  - {kind: transform, expr: 'arguments.doubled + 1'}\n",
			record.Succeeded, []string{`"final":5`, `"ok_count":3`, `"verdict":"succeeded"`, `"first_failure_index":null`, `"n":3`, `"first":{"n":2,"tag":"v1"}`}, []string{"second"}, nil},
		{"templates read the one before too", "kind: pipeline\nsteps:\n  - " + ok + "\n  - {kind: cli, run: 'echo {arguments.tag} > tagged'}\n", record.Succeeded, nil, []string{"tagged"}, nil},
		{"bail stops at the first failure", "kind: pipeline\nsteps:\n  - " + ok + "\n  - {kind: cli, run: 'echo broke >&2; exit 3'}\n  - {kind: cli, run: 'touch third'}\n",
			record.Failed, []string{"transition go failed: pipeline failed: 1 of 3 steps succeeded; step 2 (cli) failed: exited with code 3: broke"}, nil, []string{"third"}},
		{"continue runs the rest on the last output", "kind: pipeline\non_step_failure: continue\nsteps:\n  - " + ok + "\n  - {kind: cli, run: 'exit 3'}\n  - {kind: cli, run: 'echo {arguments.tag} > third'}\n",
			record.Failed, []string{"pipeline failed: 2 of 3 steps succeeded; step 2 (cli) failed"}, []string{"third"}, nil},
		{"a skipped step erases nothing", "kind: pipeline\nsteps:\n  - " + ok + "\n  - {kind: cli, run: 'echo {\"n\": 9}', condition: 'false'}\n  - {kind: transform, expr: 'arguments.n'}\n",
			record.Succeeded, []string{`"final":2`, `"skipped":true`}, nil, nil},
		{"a step's own retry", "kind: pipeline\nsteps:\n  - {kind: cli, run: 'test -f once || { touch once; exit 1; }; echo again', retry: {max: 2, delay_ms: 1}}\n",
			record.Succeeded, []string{`"final":"again"`}, []string{"once"}, nil},
		{"total timeout", "kind: pipeline\ntotal_timeout_ms: 300\nsteps:\n  - {kind: cli, run: 'sleep 20'}\n  - {kind: cli, run: 'touch second'}\n",
			record.Failed, []string{"pipeline failed: 0 of 2 steps succeeded", "total_timeout_ms 300 passed"}, nil, []string{"second"}},
		{"a pipeline in a parallel in a pipeline", "kind: pipeline\nsteps:\n  - kind: parallel\n    branches:\n      - kind: pipeline\n        steps: [" + ok + ", {kind: transform, expr: 'arguments.n * 10'}]\n      - {kind: noop}\n  - {kind: transform, expr: 'arguments.summary.ok_count'}\n",
			record.Succeeded, []string{`"final":2`}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src := executorFlow("", tc.executor, "final: \"$.output.final_output\"\nfirst: \"$.output.steps[0].output\"\nsummary: \"$.output.summary\"\nskipped: \"$.output.steps[1].skipped\"")
			res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: load(t, src)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", res.Status, tc.status, res.Error)
			}
			text := res.Error + asJSON(t, res.Context)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("no %q in %s", w, text)
				}
			}
			for _, f := range tc.ran {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s was not made: %v", f, err)
				}
			}
			for _, f := range tc.notRan {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					t.Errorf("%s was made by a step that must not run", f)
				}
			}
		})
	}
}

// TestPipelineFirstStepReadsTheDecisionsArguments: the first step of a
// pipeline reads the arguments of the decision that took its transition;
// each step is a step of its own in the events.
func TestPipelineFirstStepReadsTheDecisionsArguments(t *testing.T) {
	src := flowOf("", `      a:
        transitions:
          go:
            target: b
            inputSchema: {type: object, properties: {n: {type: integer}}}
            executor:
              kind: pipeline
              steps:
                - {kind: transform, expr: 'arguments.n + 1'}
                - {kind: transform, expr: 'arguments * 2'}
            output:
              result: "$.output.final_output"
      b: {terminal: true}
`)
	c, dir, j, rec := load(t, src), t.TempDir(), &memJournal{}, &event.Recorder{}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %+v", err, res)
	}
	res, err = New(WithDir(dir), WithEvents(rec)).Run(context.Background(), Request{Chain: c, Journal: j, History: j.transitions, Take: "go", Args: map[string]any{"n": 4}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
	if got := asJSON(t, res.Context["result"]); got != "10" {
		t.Errorf("result %s, want 10", got)
	}
	var started []string
	for _, e := range rec.Events() {
		if e.Type == event.StepStarted {
			started = append(started, e.Step)
		}
	}
	if !slices.Equal(started, []string{"go", "go[0]", "go[1]"}) {
		t.Errorf("steps started %v", started)
	}
}

func TestStructuralAnalysisExecutor(t *testing.T) {
	const cycle = "{initialState: a, states: {a: {transitions: {loop: {target: a}, out: {target: b}}}, b: {terminal: true}}}"
	cases := []struct {
		name, context, executor string
		status                  record.Status
		want                    string // in the error, or in the context as JSON
	}{
		{"clean candidate from the context", "{candidate_definition: {initialState: a, states: {a: {transitions: {go: {target: b}}}, b: {terminal: true}}}}", "kind: structural_analysis",
			record.Succeeded, `"issues":[]`},
		{"issues are a result", "{draft: " + cycle + "}", "kind: structural_analysis\ndefinition: \"$.context.draft\"",
			record.Succeeded, `"issues":[{"location":"/workflows/candidate/states/a","message":"unguarded cycle in workflow 'candidate': a → a","rule":"CYCLE_DETECTED","severity":"error"}]`},
		{"a candidate written as YAML text", "{candidate_definition: \"initialState: a\\nstates:\\n  a: {transitions: {go: {target: nowhere}}}\\n\"}", "kind: structural_analysis",
			record.Succeeded, `"rule":"UNDEFINED_TARGET"`},
		{"a candidate written in the file", "", "kind: structural_analysis\ndefinition: " + cycle,
			record.Succeeded, `"count":1`},
		{"no candidate anywhere", "", "kind: structural_analysis", record.Failed,
			"transition go failed: no candidate definition to analyse: $.arguments.definition, else $.context.candidate_definition selects nothing"},
		{"the named place is empty", "{candidate_definition: {}}", "kind: structural_analysis\ndefinition: \"$.context.draft\"", record.Failed,
			"no candidate definition to analyse: $.context.draft selects nothing"},
		{"a candidate that is no definition", "{candidate_definition: 42}", "kind: structural_analysis", record.Failed,
			"transition go failed: $.context.candidate_definition: the definition is a number, not a workflow file or workflow (a mapping)"},
		{"text that is no YAML", "{candidate_definition: 'states: [a'}", "kind: structural_analysis", record.Failed,
			"$.context.candidate_definition: the definition is text that is not YAML or JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := withContext(executorFlow("", tc.executor, "issues: \"$.output.issues\"\ncount: \"$.output.issue_count\""), tc.context)
			res := runFlow(t, src, Request{})
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", res.Status, tc.status, res.Error)
			}
			if text := res.Error + asJSON(t, res.Context); !strings.Contains(text, tc.want) {
				t.Errorf("no %q in %s", tc.want, text)
			}
		})
	}
}

// TestPipelineAndStructuralAnalysisDryRun: a dry run shows each step of a
// pipeline and where a structural analysis finds its candidate.
func TestPipelineAndStructuralAnalysisDryRun(t *testing.T) {
	src := flowOf("", `      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: pipeline
              on_step_failure: continue
              steps:
                - {kind: cli, command: echo, args: [one]}
                - {kind: structural_analysis, definition: "$.context.draft"}
      b:
        transitions:
          check: {target: c, actor: deterministic, executor: {kind: structural_analysis}}
      c: {terminal: true}
`)
	plan, err := New(WithDir(t.TempDir())).Plan(Request{Chain: load(t, src)})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, p := range plan {
		actions = append(actions, p.Action)
	}
	text := strings.Join(actions, "\n")
	for _, want := range []string{
		"pipeline, on failure continue:\n  step 1 (cli): echo one\n  step 2 (structural_analysis): structural analysis of the candidate at $.context.draft (NO_TRANSITIONS, ",
		"structural analysis of the candidate at $.arguments.definition, else $.context.candidate_definition (NO_TRANSITIONS, UNDEFINED_TARGET, DEAD_STATE, CYCLE_DETECTED, OVERSIZED_STATE, UNDECLARED_SLOT_READ, UNBLESSED_SUBJECT_ROOT)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// TestNestedEvidenceIsCounted: each branch of a parallel executor and
// each step of a pipeline that succeeded records its evidence: (else its
// kind's), kept with its id and summary as they read when it ran, and
// evidence guards count them; a failed branch records none.
func TestNestedEvidenceIsCounted(t *testing.T) {
	src := func(need int) string {
		return flowOf("", `      a:
        transitions:
          fan:
            target: b
            actor: deterministic
            executor:
              kind: parallel
              join: {expression: "$.ok_count >= 2"}
              on_branch_failure: continue
              branches:
                - {kind: noop, evidence: {kind: review, id: "arch-{{$.workflow.id}}", summary: Architecture review}}
                - {kind: cli, run: 'exit 1', evidence: {kind: review, id: bug}}
                - {kind: noop, evidence: {kind: review, id: sec}}
                - {kind: noop, condition: 'false', evidence: {kind: review, id: skipped}}
                - {kind: cli, run: 'echo linted'}
                - kind: pipeline
                  steps: [{kind: noop, evidence: {kind: built}}]
      b:
        transitions:
          ship:
            target: done
            actor: deterministic
            guards: [{kind: evidence, requires: [{kind: review, count: `+string(rune('0'+need))+`}, {kind: cli_output, require_digest: true}, built]}]
      done: {terminal: true}
`)
	}
	j := &memJournal{}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src(2)), Journal: j})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
	got := asJSON(t, j.transitions[0].Evidence)
	for _, want := range []string{`{"kind":"review","id":"arch-` + res.RunID + `","summary":"Architecture review","step":"fan[0]"}`, `"id":"sec","step":"fan[2]"`, `"kind":"cli_output","step":"fan[4]","digest":"sha256:`, `"kind":"built","step":"fan[5][0]"`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in %s", want, got)
		}
	}
	if strings.Contains(got, "bug") || strings.Contains(got, "skipped") {
		t.Errorf("a failed or skipped branch recorded evidence: %s", got)
	}
	res = runFlow(t, src(3), Request{})
	if res.Status != record.Failed || !strings.Contains(res.Error, `needs 3 "review" records, has 2`) {
		t.Errorf("three reviews: %s %s", res.Status, res.Error)
	}
}
