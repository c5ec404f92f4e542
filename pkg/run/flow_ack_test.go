package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// ackWorkflow waits, at review, for the acknowledgment of the script the
// next state runs; hold is a person's.
const ackWorkflow = `version: '1'
scripts:
  deploy.production.rollout:
    verb: deploy
    lifecycle: stable
    body: |
      #!/usr/bin/env bash
      echo rolled out
skills:
  review.security.checklist: {verb: review, lifecycle: stable, body: No secrets in output.}
workflows:
  w:
    initialState: review
    states:
      review:
        goal: Review the deploy script
        transitions:
          acknowledge:
            target: deploy
            guards: [{kind: script_acknowledged, subject: deploy.production.rollout}]
          hold: {target: held, actor: human}
      deploy:
        transitions:
          run: {target: done, actor: deterministic, executor: {kind: script, subject: deploy.production.rollout}}
      done: {terminal: true}
      held: {terminal: true}
`

// ackRun runs (or resumes, with history) the workflow src.
func ackRun(t *testing.T, src string, j *memJournal, req Request, opts ...Option) (*record.Result, error) {
	t.Helper()
	req.Chain, req.Journal, req.History = load(t, src), j, append([]record.TransitionRecord(nil), j.transitions...)
	return New(append([]Option{WithDir(t.TempDir())}, opts...)...).Run(context.Background(), req)
}

// acks are the acknowledgments a journal holds, as "KIND SUBJECT by".
func acks(j *memJournal) []string {
	var out []string
	for _, rec := range j.transitions {
		if rec.Ack != nil {
			out = append(out, rec.Ack.String()+" by "+rec.DecidedBy)
		}
	}
	return out
}

// TestAcknowledgedByTheCaller: the run pauses with the transition that
// waits for an acknowledgment among its links, naming the subject, and
// the script's body in its guidance; --take alone is refused naming the
// guard; --ack records the acknowledgment, which a later resume reads.
func TestAcknowledgedByTheCaller(t *testing.T) {
	j := &memJournal{}
	res, err := ackRun(t, ackWorkflow, j, Request{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || len(res.Links) != 2 || res.Links[1].Transition != "acknowledge" || strings.Join(res.Links[1].Acknowledge, ",") != "deploy.production.rollout" {
		t.Fatalf("%s %s %+v", res.Status, res.Error, res.Links)
	}
	shown := res.Guidance.Acknowledge
	if len(shown) != 1 || shown[0].Kind != "script" || !strings.Contains(shown[0].Body, "echo rolled out") || !strings.HasPrefix(shown[0].Hash, "sha256:") || shown[0].Acknowledged {
		t.Fatalf("guidance %+v", shown)
	}

	_, err = ackRun(t, ackWorkflow, j, Request{Take: "acknowledge"})
	var te *response.TakeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `--take acknowledge: not viable at state "review": guard 1 (script_acknowledged "deploy.production.rollout"): script deploy.production.rollout has not been acknowledged in this run`) {
		t.Fatalf("take without ack: %v", err)
	}
	_, err = ackRun(t, ackWorkflow, j, Request{Acks: []string{"deploy.production.rollot"}})
	var ae *response.AckError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "--ack deploy.production.rollot: no script or skill of the run has that subject; its acknowledgment guards ask for deploy.production.rollout (did you mean deploy.production.rollout?)") {
		t.Fatalf("unknown subject: %v", err)
	}
	if len(acks(j)) != 0 {
		t.Fatal("a refused call saved an acknowledgment")
	}

	// acknowledged alone: the transition is now a link like any other
	res, err = ackRun(t, ackWorkflow, j, Request{Acks: []string{"deploy.production.rollout"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || len(res.Links) != 2 || res.Links[0].Transition != "acknowledge" || res.Links[0].Acknowledge != nil || !res.Guidance.Acknowledge[0].Acknowledged {
		t.Fatalf("%s %+v %+v", res.Status, res.Links, res.Guidance)
	}
	if got := strings.Join(acks(j), "; "); got != "script deploy.production.rollout by caller" {
		t.Fatalf("acks %q", got)
	}
	res, err = ackRun(t, ackWorkflow, j, Request{Take: "acknowledge"})
	if err != nil || res.Status != record.Succeeded || res.State != "done" {
		t.Fatalf("%v %+v", err, res)
	}
}

// TestAckAndTakeInOneCall: --ack with --take takes the transition; the
// acknowledgment is saved first, and counts as no transition taken.
func TestAckAndTakeInOneCall(t *testing.T) {
	j := &memJournal{}
	if _, err := ackRun(t, ackWorkflow, j, Request{}); err != nil {
		t.Fatal(err)
	}
	res, err := ackRun(t, ackWorkflow, j, Request{Take: "acknowledge", Acks: []string{"deploy.production.rollout"}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
	if len(j.transitions) != 3 || j.transitions[0].Ack == nil || j.transitions[0].From != "review" || j.transitions[0].To != "review" || !j.transitions[0].Hook {
		t.Fatalf("records %+v", j.transitions)
	}
	if len(res.Chain) != 2 || res.Chain[0].Transition != "acknowledge" || res.Chain[0].DecidedBy != "caller" {
		t.Errorf("chain %+v", res.Chain)
	}
}

// TestAckGuardHashFlip: an acknowledgment of a body that has changed
// since no longer counts.
func TestAckGuardHashFlip(t *testing.T) {
	j := &memJournal{}
	if _, err := ackRun(t, ackWorkflow, j, Request{Acks: []string{"deploy.production.rollout"}}); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(ackWorkflow, "echo rolled out", "echo rolled out everywhere", 1)
	res, err := ackRun(t, edited, j, Request{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Paused || len(res.Links) != 2 || len(res.Links[1].Acknowledge) != 1 || res.Guidance.Acknowledge[0].Acknowledged {
		t.Fatalf("%s %+v", res.Status, res.Links)
	}
	_, err = ackRun(t, edited, j, Request{Take: "acknowledge"})
	if err == nil || !strings.Contains(err.Error(), "script deploy.production.rollout was acknowledged at sha256:") || !strings.Contains(err.Error(), "read it again") {
		t.Fatalf("%v", err)
	}
}

// TestAckGuardAtADeterministicState: nobody decides there, so nothing
// can acknowledge: the run fails with the selection error naming the
// guard, and a resume with --ack goes on.
func TestAckGuardAtADeterministicState(t *testing.T) {
	src := strings.Replace(ackWorkflow, "            guards: [{kind: script_acknowledged", "            actor: deterministic\n            guards: [{kind: script_acknowledged", 1)
	src = strings.Replace(src, "          hold: {target: held, actor: human}\n", "", 1)
	j := &memJournal{}
	res, err := ackRun(t, src, j, Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := `selection_error: state review: no deterministic transition is viable (acknowledge: guard 1 (script_acknowledged "deploy.production.rollout"): script deploy.production.rollout has not been acknowledged in this run`
	if res.Status != record.Failed || !strings.Contains(res.Error, want) {
		t.Fatalf("%s %s", res.Status, res.Error)
	}
	res, err = ackRun(t, src, j, Request{Acks: []string{"deploy.production.rollout"}})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
}

// TestAgentDescribesThenTakes: a model deciding is offered the describe
// tool; a choice before it describes is refused with why, the description
// answers the body and records the acknowledgment, and the choice then
// stands.
func TestAgentDescribesThenTakes(t *testing.T) {
	s := llmtest.New(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "acknowledge"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "describe", Arguments: `{"subject": "deploy.production.rollout"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "acknowledge"}`}}},
	)
	defer s.Close()
	j := &memJournal{}
	res, err := ackRun(t, ackWorkflow, j, Request{AgentModel: "anthropic/m1"}, WithModels(registryFor(s, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || res.Chain[0].DecidedBy != "model:anthropic/m1" || res.Usage.LLMCalls != 3 {
		t.Fatalf("%s %s %+v %+v", res.Status, res.Error, res.Chain, res.Usage)
	}
	if got := strings.Join(acks(j), "; "); got != "script deploy.production.rollout by model:anthropic/m1" {
		t.Fatalf("acks %q", got)
	}
	reqs := s.Requests()
	first := asJSON(t, reqs[0].Body)
	for _, want := range []string{`"name":"describe"`, `"enum":["deploy.production.rollout"]`, `"enum":["acknowledge"]`, `"tool_choice":{"type":"any"}`,
		"acknowledge: Acknowledge (it waits until you call describe for deploy.production.rollout)"} {
		if !strings.Contains(first, want) {
			t.Errorf("first request lacks %s:\n%s", want, first)
		}
	}
	if second := asJSON(t, reqs[1].Body); !strings.Contains(second, "has not been acknowledged in this run") {
		t.Errorf("the early choice was not refused with why:\n%s", second)
	}
	if third := asJSON(t, reqs[2].Body); !strings.Contains(third, `echo rolled out`) || !strings.Contains(third, `\"kind\":\"script\"`) {
		t.Errorf("the description is not in the transcript:\n%s", third)
	}
}

// TestAckKinds: a skill's acknowledgment does not stand for a script's of
// the same subject; --ack acknowledges what the guards ask for.
func TestAckKinds(t *testing.T) {
	src := strings.Replace(ackWorkflow, "kind: script_acknowledged, subject: deploy.production.rollout", "kind: guidance_acknowledged, subject: review.security.checklist", 1)
	j := &memJournal{}
	res, err := ackRun(t, src, j, Request{Acks: []string{"review.security.checklist"}, Take: "acknowledge"})
	if err != nil || res.Status != record.Succeeded {
		t.Fatalf("%v %+v", err, res)
	}
	if got := strings.Join(acks(j), "; "); got != "guidance review.security.checklist by caller" {
		t.Fatalf("acks %q", got)
	}
	// the script's guard is not met by the skill's acknowledgment
	both := strings.Replace(src, "guards: [{kind: guidance_acknowledged, subject: review.security.checklist}]",
		"guards: [{kind: guidance_acknowledged, subject: review.security.checklist}, {kind: script_acknowledged, subject: deploy.production.rollout}]", 1)
	j = &memJournal{}
	_, err = ackRun(t, both, j, Request{Acks: []string{"review.security.checklist"}, Take: "acknowledge"})
	if err == nil || !strings.Contains(err.Error(), "guard 2 (script_acknowledged") {
		t.Fatalf("%v", err)
	}
	ev := &chain.AckFacts{Acked: map[chain.AckKey]string{{Kind: chain.AckGuidance, Subject: "x.y"}: "h"}}
	if ok, _, _ := ev.Acknowledged(chain.AckKey{Kind: chain.AckScript, Subject: "x.y"}); ok {
		t.Error("a skill's acknowledgment stood for a script's")
	}
}

// TestAckGuardOfNoScript: a script_acknowledged guard whose script is in
// no scripts: library is refused before anything runs, at its subject.
func TestAckGuardOfNoScript(t *testing.T) {
	src := strings.Replace(ackWorkflow, "guards: [{kind: script_acknowledged, subject: deploy.production.rollout}]", "guards: [{kind: script_acknowledged, subject: deploy.production.rolout}]", 1)
	err := CheckCalls(load(t, src), Resolvers{})
	want := `test.yaml:20:50: state "review": transition "acknowledge": script deploy.production.rolout is not in the scripts: library of test.yaml`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// TestAgentThatNeverDescribes: a model that keeps choosing the waiting
// transition without describing leaves the decision to a person: the run
// pauses, and a warning says why.
func TestAgentThatNeverDescribes(t *testing.T) {
	choose := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "acknowledge"}`}}}
	s := llmtest.New(choose, choose, choose)
	defer s.Close()
	res, err := ackRun(t, ackWorkflow, &memJournal{}, Request{AgentModel: "openai/m1"}, WithModels(registryFor(s, nil)))
	if err != nil {
		t.Fatal(err)
	}
	want := `state review: openai/m1 named no transition that can be taken in 3 answers, so a person decides; its last answer: "acknowledge": acknowledge cannot be taken yet: guard 1 (script_acknowledged "deploy.production.rollout"): script deploy.production.rollout has not been acknowledged in this run: read its body first (the describe tool of a deciding model, or resume --ack deploy.production.rollout) (offered: acknowledge)`
	if res.Status != record.Paused || len(res.Warnings) != 1 || res.Warnings[0] != want {
		t.Fatalf("%s %s %q", res.Status, res.Error, res.Warnings)
	}
}
