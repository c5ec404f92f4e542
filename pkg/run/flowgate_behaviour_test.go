package run

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// The cases below translate mcp-flowgate's own behaviour tests
// (github.com/matt-cochran/mcp-flowgate, crates/mcp-flowgate-core/tests/)
// into chainrun's runner; each names its source. Where a peer test and
// reference 000 disagree, the reference wins and the case says so.

// linkNames are the transitions a result offers.
func linkNames(res *record.Result) []string {
	var out []string
	for _, l := range res.Links {
		if l.Blocked == "" {
			out = append(out, l.Transition)
		}
	}
	return out
}

// TestMixedStateOffersOnlyItsDecisions ports deterministic_chain.rs (commit
// 6c28a9486d7c25f191782aa67a8c0b1861f3f1a7)
// mixed_state_stops_chain and deterministic_transitions_hidden_from_links:
// a state with a deterministic and a decided transition does not chain,
// and only the decided ones are links or --take choices. chain_audit.rs
// (commit 443aa7a) deterministic_transition_submittable_for_recovery
// lets a submit take such a hidden deterministic transition ("no actor
// gate"); chainrun's contract makes a --take that names no link exit 2,
// so it is refused here (the contract wins). chainrun's recovery is the
// retry link a failed deterministic transition leaves
// (TestFlowgateDeterministicChaining).
func TestMixedStateOffersOnlyItsDecisions(t *testing.T) {
	for name, src := range map[string]string{
		"agent and deterministic": wf(`    states:
      a:
        transitions:
          auto_check: {target: b, actor: deterministic, executor: {kind: transform, expr: '1'}}
          manual_override: {target: c, actor: agent}
      b: {terminal: true}
      c: {terminal: true}
`),
		"human, agent and two deterministic": wf(`    states:
      a:
        transitions:
          sweep: {target: b, actor: deterministic}
          approve: {target: c, actor: human}
          lint: {target: b, actor: deterministic, condition: 'true'}
          manual_override: {target: c, actor: agent}
      b: {terminal: true}
      c: {terminal: true}
`),
	} {
		t.Run(name, func(t *testing.T) {
			res := runChain(t, src, nil)
			if res.Status != record.Paused || res.State != "a" || len(res.Chain) != 0 {
				t.Fatalf("%s at %s chain %v: %s", res.Status, res.State, res.Chain, res.Error)
			}
			for _, n := range linkNames(res) {
				if n == "auto_check" || n == "sweep" || n == "lint" {
					t.Errorf("deterministic transition %s offered: %v", n, linkNames(res))
				}
			}
			if !strings.Contains(strings.Join(linkNames(res), ","), "manual_override") {
				t.Errorf("links %v", linkNames(res))
			}
			for _, take := range []string{"auto_check", "sweep", "lint"} {
				if !strings.Contains(src, take+":") {
					continue
				}
				_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Take: take})
				var te *response.TakeError
				if !errors.As(err, &te) {
					t.Errorf("--take %s: %v", take, err)
				}
			}
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Take: "manual_override"})
			if err != nil || res.Status != record.Succeeded || res.State != "c" {
				t.Fatalf("--take manual_override: %v %+v", err, res)
			}
		})
	}
}

// TestDepthLimitIsAStop ports deterministic_chain.rs (commit 6c28a948…)
// depth_limit_stops_chain_early with depth_limited_config
// (maxChainDepth 2, a→b→c→d→e all deterministic, ends at c with a chain
// of 2 and no error): reference 000 lists the depth limit among the stop
// conditions, so the run pauses there, resumable, and a resume chains on.
func TestDepthLimitIsAStop(t *testing.T) {
	for _, depth := range []int{1, 2, 3} {
		src := wf(`    maxChainDepth: ` + string(rune('0'+depth)) + `
    states:
      a: {transitions: {ab: {target: b, actor: deterministic}}}
      b: {transitions: {bc: {target: c, actor: deterministic, executor: {kind: transform, expr: '2'}}}}
      c: {transitions: {cd: {target: d, actor: deterministic}}}
      d: {transitions: {de: {target: e, actor: deterministic}}}
      e: {terminal: true}
`)
		states := "abcde"
		c := load(t, src)
		j := &memJournal{}
		res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Journal: j})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != record.Paused || res.Error != "" || len(res.Chain) != depth || res.State != string(states[depth]) || len(res.Warnings) == 0 {
			t.Fatalf("depth %d: %s %q chain %d state %s warnings %v", depth, res.Status, res.Error, len(res.Chain), res.State, res.Warnings)
		}
		for i := 0; i < 5 && res.Status == record.Paused; i++ {
			res, _ = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, History: j.transitions, Journal: j})
		}
		if res.Status != record.Succeeded || res.State != "e" || len(j.transitions) != 4 {
			t.Fatalf("depth %d resumed: %s at %s, %d transitions: %s", depth, res.Status, res.State, len(j.transitions), res.Error)
		}
	}
}

// TestStateWithNoAllowedTransitionWaits ports evidence_guard.rs
// evidence_guard_rejects_without_required_kind (commit 00632101…), and
// stress_guards_mapping.rs (commit 443aa7a) s01_bounded_loop_counter's
// fourth remediate, s15b_composite_guard_blocks_when_any_clause_fails,
// s17d_starts_with_guard_rejects and s17f_contains_guard_rejects: a
// submit whose guard does not hold is GUARD_REJECTED and the instance
// stays where it was, in a state none of whose transitions holds now.
// In chainrun the run waits at the state (paused, with a warning naming
// each guard; under linkFilter: all each transition is listed with the
// guard that blocks it), and taking a guarded one is refused naming its
// guard. Each of those tests is ported whole in
// TestFlowgateStressGuardsAndMapping.
func TestStateWithNoAllowedTransitionWaits(t *testing.T) {
	for name, src := range map[string]string{
		"one guarded agent transition": wf(`    states:
      a:
        transitions:
          ship: {target: b, actor: agent, guards: [{kind: expr, expr: "$.context.ready == true"}]}
      b: {terminal: true}
    initialContext: {ready: false}
`),
		"a condition and a guard": wf(`    initialContext: {n: 1}
    states:
      a:
        transitions:
          ship: {target: b, actor: human, guards: [{kind: expr, expr: "$.context.n > 3"}]}
          skip: {target: b, actor: agent, condition: 'false'}
      b: {terminal: true}
`),
	} {
		t.Run(name, func(t *testing.T) {
			res := runChain(t, src, nil)
			if res.Status != record.Paused || res.State != "a" || res.Error != "" {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
			_, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Take: "ship"})
			if err == nil || !strings.Contains(err.Error(), "guard 1") {
				t.Fatalf("--take ship: %v", err)
			}
		})
	}
}

// TestSchemaDefaultsFillBeforeRequired ports stress_guards_mapping.rs
// (commit 443aa7a) s02_schema_defaults_applied_to_arguments ("priority"
// required with a default, not given: the default fills it before
// validation) and s04_nested_schema_defaults (a nested object's
// properties get their defaults), extended to a workflow's own inputs
// and to an absent object made for its defaults (peer-fidelity.md F8).
// The two tests are ported as written in TestFlowgateStressGuardsAndMapping.
func TestSchemaDefaultsFillBeforeRequired(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      required: [mode, opts]
      properties:
        mode: {type: string, default: fast}
        opts:
          type: object
          required: [depth]
          properties:
            depth: {type: integer, default: 3}
            deep: {type: object, properties: {tag: {type: string, default: t}}}
    states:
      a:
        transitions:
          go:
            target: b
            actor: human
            inputSchema:
              type: object
              required: [why, more]
              properties:
                why: {type: string, default: because}
                more: {type: object, required: [n], properties: {n: {type: integer, default: 7}}}
            output:
              why: $.arguments.why
              n: $.arguments.more.n
              depth: $.input.opts.depth
              tag: $.input.opts.deep.tag
              mode: $.input.mode
      b: {terminal: true}
`)
	for name, tc := range map[string]struct {
		inputs map[string]string
		want   string
	}{
		"nothing given":        {nil, `{"depth":3,"mode":"fast","n":7,"tag":"t","why":"because"}`},
		"a top-level given":    {map[string]string{"mode": "slow"}, `{"depth":3,"mode":"slow","n":7,"tag":"t","why":"because"}`},
		"an object half given": {map[string]string{"opts": `{"depth": 9}`}, `{"depth":9,"mode":"fast","n":7,"tag":"t","why":"because"}`},
	} {
		t.Run(name, func(t *testing.T) {
			res := runChain(t, src, tc.inputs)
			if res.Status != record.Paused || len(res.Links) != 1 || len(res.Links[0].Args) != 0 {
				t.Fatalf("%s %s links %+v", res.Status, res.Error, res.Links)
			}
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: tc.inputs, Take: "go"})
			if err != nil || res.Status != record.Succeeded {
				t.Fatalf("--take go: %v %+v", err, res)
			}
			if got := asJSON(t, res.Context); got != tc.want {
				t.Errorf("context\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestUnreachableStepsNeedNothing: a connection, a script or a workflow
// step named only in a state no run reaches does not refuse the run
// (mcp-flowgate runs such a file); validate warns, saying no run needs it.
func TestUnreachableStepsNeedNothing(t *testing.T) {
	for name, exec := range map[string]string{
		"an undeclared mcp connection":  `{kind: mcp, connection: nowhere, tool: x}`,
		"an undeclared rest connection": `{kind: rest, connection: nowhere, path: /x}`,
		"a script no library holds":     `{kind: script, subject: nothing.here}`,
	} {
		t.Run(name, func(t *testing.T) {
			src := wf(`    states:
      a: {transitions: {go: {target: b, actor: deterministic, executor: {kind: transform, expr: '1'}}}}
      b: {terminal: true}
      island:
        transitions:
          ask: {target: b, actor: deterministic, executor: ` + exec + `}
`)
			c := load(t, src)
			warned := PendingDefinitions(c, Resolvers{})
			if len(warned) != 1 || !strings.Contains(warned[0].Message, "its state is unreachable, so no run needs it") {
				t.Errorf("PendingDefinitions: %v", warned)
			}
			res := runChain(t, src, nil)
			if res.Status != record.Succeeded || res.State != "b" {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
		})
	}
}

// TestCalledWorkflowTakesItsInputsAsGiven follows the files of
// flow_orchestrators_e2e.rs (commit 443aa7a,
// crates/mcp-flowgate-executors/tests/; peer-fidelity.md F3):
// flow.add-feature passes scope_paths: "$.context.draft_plan", an object,
// to cap.implement.tdd-loop, whose snippet declares scope_paths
// {type: array, default: []}; flow.bugfix-from-error-log passes its
// fix_plan object to cap.implement.scope-bounded's array. mcp-flowgate
// loads and walks both to done (flow_add_feature_walks_to_terminal,
// flow_bugfix_from_error_log_walks_to_terminal — its fixture executor
// short-circuits the capability, so the test pins that nothing refuses
// the call, not what the capability makes of it; that walk is ported
// in TestFlowgateOrchestratorsWalkToDone). Here a capability that does
// run gets the value as given, with a warning naming it.
func TestCalledWorkflowTakesItsInputsAsGiven(t *testing.T) {
	for name, tc := range map[string]struct {
		decl, given, want string
		warns             bool
	}{
		"an object for an array":  {`{type: array, default: []}`, `{files: ["a.go"]}`, `{"files":["a.go"]}`, true},
		"a string for an integer": {`{type: integer, default: 1}`, `"many"`, `"many"`, true},
		"an array for an array":   {`{type: array, default: []}`, `["x", "y"]`, `["x","y"]`, false},
	} {
		t.Run(name, func(t *testing.T) {
			src := `version: '1'
workflows:
  flow:
    initialContext: {scope: ` + tc.given + `}
    initialState: a
    states:
      a:
        transitions:
          call:
            target: done
            actor: deterministic
            executor:
              kind: workflow
              definitionId: cap
              use:
                inputs: {scope_paths: "$.context.scope"}
                outputs: {"$.context.got": got}
      done: {terminal: true}
  cap:
    inputSchema:
      type: object
      properties:
        scope_paths: ` + tc.decl + `
    initialState: s
    states:
      s:
        transitions:
          read: {target: e, actor: deterministic, output: {got: "$.input.scope_paths"}}
      e: {terminal: true}
`
			res := runFlow(t, src, Request{})
			if res.Status != record.Succeeded || res.State != "done" {
				t.Fatalf("%s at %s: %s", res.Status, res.State, res.Error)
			}
			if got := asJSON(t, res.Context["got"]); got != tc.want {
				t.Errorf("got %s want %s", got, tc.want)
			}
			warned := strings.Contains(strings.Join(res.Warnings, "\n"), `declares input "scope_paths"`)
			if warned != tc.warns {
				t.Errorf("warnings %v", res.Warnings)
			}
		})
	}
}

// TestConcatWritesAMissingOperandAsNull ports stress_guards_mapping.rs
// (commit 443aa7a) s17b_concat_with_null_element (peer-fidelity.md F9):
// an operand that selects nothing is written "null" (before=null=after),
// as mcp-flowgate writes it, not left out; here for context operands too.
func TestConcatWritesAMissingOperandAsNull(t *testing.T) {
	for operands, want := range map[string]string{
		`["before=", "$.context.nothing", "=after"]`: "before=null=after",
		`["$.context.gone", "-", "$.context.n"]`:     "null-2",
		`["$.context.s", "$.context.n"]`:             "x2",
	} {
		src := wf(`    initialContext: {n: 2, s: x}
    states:
      a:
        transitions:
          go: {target: b, actor: deterministic, output: {got: {concat: ` + operands + `}}}
      b: {terminal: true}
`)
		res := runChain(t, src, nil)
		if res.Status != record.Succeeded || res.Context["got"] != want {
			t.Errorf("%s: %s %v %s", operands, res.Status, res.Context["got"], res.Error)
		}
	}
}

// TestEarlierFlowgateKeysLoadWithANote: files written against earlier
// versions of mcp-flowgate's format (workflow aliases and examples, an
// executor's timeoutMs) load and run, each older key read with a note; a
// timeoutMs is the executor's time limit.
func TestEarlierFlowgateKeysLoadWithANote(t *testing.T) {
	src := `version: '1'
workflows:
  w:
    aliases: [old.name]
    examples: [{input: {}}]
    initialState: a
    states:
      a:
        transitions:
          slow: {target: b, actor: deterministic, executor: {kind: cli, command: sleep, args: ["5"], timeoutMs: 200}}
      b: {terminal: true}
`
	l, err := loader.Parse("old.yaml", []byte(src), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, w := range l.Warnings {
		said = append(said, w.Message)
	}
	for _, want := range []string{"aliases: read as a note", "examples: read as a note", "timeoutMs: read as timeout_ms"} {
		if !strings.Contains(strings.Join(said, "\n"), want) {
			t.Errorf("no note %q in %v", want, said)
		}
	}
	began := time.Now()
	res := runChain(t, src, nil)
	if res.Status != record.Failed || time.Since(began) > 4*time.Second {
		t.Fatalf("the executor's timeoutMs did not hold: %s after %s: %s", res.Status, time.Since(began), res.Error)
	}
}
