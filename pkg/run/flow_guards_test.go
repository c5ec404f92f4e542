package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestDeterministicGuards holds that a deterministic state takes the one
// transition whose guards hold, and that none or two is a
// selection_error naming every candidate and why it is not viable.
func TestDeterministicGuards(t *testing.T) {
	gate := func(n int) string {
		return wf(`    initialContext: {retries: ` + string(rune('0'+n)) + `, result: bad}
    states:
      a:
        transitions:
          work: {target: done, actor: deterministic, guards: [{kind: expr, expr: "$.context.result == 'ok'"}]}
          retry:
            target: done
            actor: deterministic
            guards:
              - {kind: expr, expr: "$.context.result != 'ok'"}
              - {kind: expr, expr: "$.context.retries < 5"}
          escalate: {target: human, actor: deterministic, guards: [{kind: expr, expr: "$.context.retries >= 3"}]}
      done: {terminal: true}
      human: {terminal: true}
`)
	}
	res := runChain(t, gate(1), nil)
	if res.Status != record.Succeeded || len(res.Chain) != 1 || res.Chain[0].Transition != "retry" {
		t.Fatalf("one viable: %s %s %+v", res.Status, res.Error, res.Chain)
	}
	res = runChain(t, gate(4), nil)
	want := `selection_error: state a: 2 deterministic transitions are viable (retry, escalate): exactly one must be; make their conditions or guards exclusive (not viable: work: guard 1 (expr "$.context.result == 'ok'"): false)`
	if res.Status != record.Failed || res.Error != want {
		t.Fatalf("two viable: %s\n got %s\nwant %s", res.Status, res.Error, want)
	}
	res = runChain(t, strings.Replace(gate(6), "escalate: {target: human, actor: deterministic, guards: [{kind: expr, expr: \"$.context.retries >= 3\"}]}", "", 1), nil)
	if res.Status != record.Failed || !strings.Contains(res.Error, `selection_error: state a: no deterministic transition is viable (work: guard 1 (expr "$.context.result == 'ok'"): false; retry: guard 2 (expr "$.context.retries < 5"): false)`) {
		t.Fatalf("none viable: %s %s", res.Status, res.Error)
	}
}

// TestGuardOnUnsetSlotFailsTheRun: guards fail fast on an unset slot,
// naming the state, the transition, the guard and the slot.
func TestGuardOnUnsetSlotFailsTheRun(t *testing.T) {
	res := runChain(t, wf(`    states:
      a:
        transitions:
          go: {target: b, actor: deterministic, guards: [{kind: expr, expr: "$.context.approved == true"}]}
      b: {terminal: true}
`), nil)
	want := `state a: transition go: guard 1 (expr "$.context.approved == true") reads $.context.approved, which is not set`
	if res.Status != record.Failed || !strings.Contains(res.Error, want) {
		t.Fatalf("%s %s", res.Status, res.Error)
	}
}

// TestUnsetSlotAtADecisionPoint: at a decision point, a transition whose
// guard reads an unset slot is not offered, with a warning naming the
// guard and the slot, and taking it is refused; the others still are.
func TestUnsetSlotAtADecisionPoint(t *testing.T) {
	c := load(t, wf(`    states:
      a:
        transitions:
          work: {target: b, guards: [{kind: expr, expr: "$.context.result == 'ok'"}]}
          give_up: {target: b}
      b: {terminal: true}
`))
	dir := t.TempDir()
	j := &memJournal{}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %+v", err, res)
	}
	want := `state a: transition work is not offered: guard 1 (expr "$.context.result == 'ok'") reads $.context.result, which is not set`
	if strings.Join(response.SortedLinkNames(res.Links), ",") != "give_up" || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) {
		t.Fatalf("links %v warnings %q", res.Links, res.Warnings)
	}
	_, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "work"})
	var te *response.TakeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "reads $.context.result, which is not set") {
		t.Fatalf("take: %v", err)
	}
}

const guardedDecision = `version: '1'
workflows:
  w:
    initialState: review
    initialContext: {risk: 3}
    states:
      review:
        goal: Approve the change
        transitions:
          approve: {target: done, actor: human, guards: [{kind: permission, permission: change.approve}]}
          reject: {target: done, actor: human}
          fast_track: {target: done, actor: human, guards: [{kind: expr, expr: "$.context.risk < 2"}]}
      done: {terminal: true}
`

// TestDecisionOffersOnlyViableLinks: a decision point offers the
// transitions whose guards hold; a --take of another is refused before
// anything runs, naming the guard, and a principal who holds the
// permission may take it.
func TestDecisionOffersOnlyViableLinks(t *testing.T) {
	c := load(t, guardedDecision)
	dir := t.TempDir()
	j := &memJournal{}
	res, err := New(WithDir(dir)).Run(context.Background(), Request{Chain: c, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || asJSON(t, res.Links) != `[{"transition":"reject","title":"Reject","actor":"human"}]` {
		t.Fatalf("%s links %s", res.Status, asJSON(t, res.Links))
	}
	_, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "approve"})
	var te *response.TakeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `--take approve: not viable at state "review": guard 1 (permission "change.approve"): no principal is configured`) ||
		!strings.Contains(err.Error(), "CHAINRUN_PRINCIPAL_PERMISSIONS") || !strings.Contains(err.Error(), "it offers reject") {
		t.Fatalf("no principal: %v", err)
	}
	intern := &chain.Principal{ID: "ivy", Roles: []string{"intern"}}
	_, err = New(WithDir(dir), WithPrincipal(intern)).Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "approve"})
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `principal "ivy" does not hold permission "change.approve"`) {
		t.Fatalf("lacking: %v", err)
	}
	_, err = New(WithDir(dir)).Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "fast_track"})
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `guard 1 (expr "$.context.risk < 2"): false`) {
		t.Fatalf("fast_track: %v", err)
	}
	lead := &chain.Principal{ID: "lee", Permissions: []string{"change.approve"}}
	res, err = New(WithDir(dir), WithPrincipal(lead)).Run(context.Background(), Request{Chain: c, History: j.transitions, Take: "approve", Journal: j})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("approved: %v %+v", err, res)
	}
	if last := j.transitions[len(j.transitions)-1]; last.Principal != "lee" || last.DecidedBy != "caller" {
		t.Errorf("record %+v", last)
	}
}

// TestHumanDeciderSeesOnlyViableLinks: the person at the terminal is
// offered what the principal may take.
func TestHumanDeciderSeesOnlyViableLinks(t *testing.T) {
	var asked response.Decision
	human := func(_ context.Context, d response.Decision) (response.Choice, bool, error) {
		asked = d
		return response.Choice{}, false, nil
	}
	lead := &chain.Principal{ID: "lee", Permissions: []string{"change.approve"}}
	res, err := New(WithDir(t.TempDir()), WithPrincipal(lead)).Run(context.Background(), Request{Chain: load(t, guardedDecision), Human: human})
	if err != nil || res.Status != record.Paused {
		t.Fatal(err, res)
	}
	if got := response.SortedLinkNames(asked.Links); strings.Join(got, ",") != "approve,reject" {
		t.Errorf("offered %v", got)
	}
}

// quorum loops at a review state until two approvals by different
// principals are recorded: evidence counts the run's saved transitions,
// so the approvals of earlier calls (resumes) count.
const quorum = `version: '1'
workflows:
  w:
    initialState: review
    states:
      review:
        transitions:
          approve:
            target: review
            actor: human
            executor: {kind: cli, run: 'echo approved', evidence: {kind: approval}}
          complete:
            target: done
            actor: human
            guards:
              - kind: evidence
                requires: [{kind: approval, count: 2, distinct_principals: true}, "transition:approve"]
      done: {terminal: true}
`

func TestEvidenceCountsAcrossResumes(t *testing.T) {
	c := load(t, quorum)
	dir := t.TempDir()
	j := &memJournal{}
	call := func(who, take string) (*record.Result, error) {
		opts := []Option{WithDir(dir)}
		if who != "" {
			opts = append(opts, WithPrincipal(&chain.Principal{ID: who}))
		}
		return New(opts...).Run(context.Background(), Request{Chain: c, History: j.transitions, Take: take, Journal: j})
	}
	res, err := call("", "")
	if err != nil || res.Status != record.Paused {
		t.Fatalf("start: %v %+v", err, res)
	}
	_, err = call("ann", "complete")
	var te *response.TakeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `guard 1 (evidence): needs 2 "approval" principals, has 0`) {
		t.Fatalf("complete too early: %v", err)
	}
	for i, who := range []string{"ann", "ann"} {
		if res, err = call(who, "approve"); err != nil || res.Status != record.Paused {
			t.Fatalf("approval %d: %v %+v", i, err, res)
		}
	}
	_, err = call("ann", "complete")
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `needs 2 "approval" principals, has 1`) {
		t.Fatalf("one principal twice: %v", err)
	}
	if res, err = call("bob", "approve"); err != nil || res.Status != record.Paused {
		t.Fatalf("bob: %v %+v", err, res)
	}
	if got := response.SortedLinkNames(res.Links); strings.Join(got, ",") != "approve,complete" {
		t.Errorf("links once the quorum is met: %v", got)
	}
	if res, err = call("bob", "complete"); err != nil || res.Status != record.Succeeded {
		t.Fatalf("complete: %v %+v", err, res)
	}
}

// TestEvidenceDefaultsAndDigests: an executor that declares no evidence
// records its kind's (cli_output); require_digest counts records with a
// digest of the executor's output.
func TestEvidenceDefaultsAndDigests(t *testing.T) {
	res := runChain(t, wf(`    states:
      a:
        transitions:
          build: {target: b, actor: deterministic, executor: {kind: cli, run: 'echo built'}}
      b:
        transitions:
          ship:
            target: done
            actor: deterministic
            guards: [{kind: evidence, requires: [{kind: cli_output, require_digest: true}, "transition:build"]}]
      done: {terminal: true}
`), nil)
	if res.Status != record.Succeeded {
		t.Fatalf("%s %s", res.Status, res.Error)
	}
}
