package run

import (
	"context"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgateTransitionRecords ports transition_records_basic.rs and
// transition_records_executor.rs (github.com/matt-cochran/mcp-flowgate,
// commit 443aa7a, crates/mcp-flowgate-core/tests/) into chainrun's
// transition records (the result's chain, the journal):
// record_emitted_per_applied_transition (three hops of a deterministic
// chain, three records in order), blackboard_delta_chain_hops_have_distinct_deltas
// (each record's context holds its own hop's write, not the next one's),
// blackboard_delta_populated_with_output_writes, and
// executor_descriptor_carries_kind_ok_and_duration_ms /
// executor_descriptor_omitted_when_no_executor_runs (a record carries its
// executor's result, status and duration, only when one ran; its kind is
// the definition's). Its records' seq, guards array and the system actor
// of a timeout are its audit log's shape: chainrun's records are in
// order, and a timeout's is decided by "timeout"
// (TestFlowgateWorkflowTimeoutLeavesAStateWithNoTransitions).
func TestFlowgateTransitionRecords(t *testing.T) {
	j := &memJournal{}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Journal: j, Chain: load(t, wf(`    states:
      a:
        transitions:
          s1: {target: b, actor: deterministic, executor: {kind: cli, run: 'echo "{\"v1\": \"alpha\", \"v2\": \"beta\"}"'}, output: {first: "$.output.v1"}}
      b:
        transitions:
          s2: {target: c, actor: deterministic, executor: {kind: cli, run: 'echo "{\"v1\": \"alpha\", \"v2\": \"beta\"}"'}, output: {second: "$.output.v2", lintPassed: true, testCount: 12}}
      c:
        transitions:
          s3: {target: d, actor: deterministic}
      d: {terminal: true}
`))})
	recs := j.transitions
	if err != nil || res.Status != record.Succeeded || len(recs) != 3 || len(res.Chain) != 3 {
		t.Fatalf("%v %s, %d records: %s", err, res.Status, len(recs), res.Error)
	}
	for i, want := range [][3]string{{"a", "s1", "b"}, {"b", "s2", "c"}, {"c", "s3", "d"}} {
		if r := recs[i]; r.From != want[0] || r.Transition != want[1] || r.To != want[2] {
			t.Errorf("record %d: %s -%s-> %s, want %v", i+1, r.From, r.Transition, r.To, want)
		}
	}
	first, second := recs[0].Context, recs[1].Context
	if first["first"] != "alpha" || first["second"] != nil {
		t.Errorf("first hop's context %v", first)
	}
	if second["second"] != "beta" || second["lintPassed"] != true || asJSON(t, second["testCount"]) != "12" {
		t.Errorf("second hop's context %v", second)
	}
	for i, r := range recs[:2] {
		if r.Step == nil || r.Step.Status != "succeeded" || r.Step.DurationMS < 0 {
			t.Errorf("record %d: the executor's result %+v", i+1, r.Step)
		}
	}
	if recs[2].Step != nil {
		t.Errorf("a transition without executor carries a result: %+v", recs[2].Step)
	}
}
