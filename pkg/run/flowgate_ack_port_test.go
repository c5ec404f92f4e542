package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestFlowgateAcknowledgedGuards ports guidance_acknowledged.rs and
// script_acknowledged_guard.rs (github.com/matt-cochran/mcp-flowgate,
// commit 443aa7a, crates/mcp-flowgate-core/tests/; SPEC §5.9, §17.4,
// §22) for both guard kinds, on ackWorkflow's review state: a guard whose
// subject was never described (acknowledged) refuses the take; one
// described at the current body's hash lets it through; an
// acknowledgment made in another run (workflow instance) does not count;
// a skill's acknowledgment does not stand for a script's, nor the
// reverse. hash_flip_invalidates_prior_ack is TestAckGuardHashFlip; a
// subject in no library and a guard without subject are refused at load
// (TestAckGuardOfNoScript, TestAckGuardDecode in pkg/chain), where
// mcp-flowgate's evaluation errors. guard_fails_when_no_ack_store_wired
// pins the wiring of its Rust store, which a run of chainrun always has.
func TestFlowgateAcknowledgedGuards(t *testing.T) {
	kinds := []struct {
		kind, subject      string
		ackKind, otherKind string
	}{
		{"script_acknowledged", "deploy.production.rollout", chain.AckScript, chain.AckGuidance},
		{"guidance_acknowledged", "review.security.checklist", chain.AckGuidance, chain.AckScript},
	}
	for _, k := range kinds {
		src := strings.Replace(ackWorkflow, "{kind: script_acknowledged, subject: deploy.production.rollout}", "{kind: "+k.kind+", subject: "+k.subject+"}", 1)
		t.Run(k.kind+"/guard_fails_when_subject_never_described", func(t *testing.T) {
			_, err := ackRun(t, src, &memJournal{}, Request{Take: "acknowledge"})
			if err == nil || !strings.Contains(err.Error(), k.subject+" has not been acknowledged in this run") {
				t.Fatalf("%v", err)
			}
		})
		t.Run(k.kind+"/guard_passes_when_subject_described_with_current_hash", func(t *testing.T) {
			j := &memJournal{}
			if _, err := ackRun(t, src, j, Request{Acks: []string{k.subject}}); err != nil {
				t.Fatal(err)
			}
			res, err := ackRun(t, src, j, Request{Take: "acknowledge"})
			if err != nil || res.Status != record.Succeeded || res.State != "done" {
				t.Fatalf("%v %+v", err, res)
			}
		})
		t.Run(k.kind+"/ack_from_different_workflow_does_not_satisfy_guard", func(t *testing.T) {
			if _, err := ackRun(t, src, &memJournal{}, Request{Acks: []string{k.subject}}); err != nil {
				t.Fatal(err)
			}
			_, err := ackRun(t, src, &memJournal{}, Request{Take: "acknowledge"})
			if err == nil || !strings.Contains(err.Error(), "has not been acknowledged in this run") {
				t.Fatalf("another run's acknowledgment counted: %v", err)
			}
		})
		t.Run(k.kind+"/script_ack_does_not_satisfy_guidance_guard_and_vice_versa", func(t *testing.T) {
			// the acknowledgment of the other kind, of the same subject
			ev := &chain.AckFacts{Acked: map[chain.AckKey]string{{Kind: k.otherKind, Subject: k.subject}: "sha256:x"},
				Current: func(chain.AckKey) (string, error) { return "sha256:x", nil }}
			if ok, _, _ := ev.Acknowledged(chain.AckKey{Kind: k.ackKind, Subject: k.subject}); ok {
				t.Errorf("a %s acknowledgment stood for a %s guard", k.otherKind, k.kind)
			}
			if ok, _, _ := ev.Acknowledged(chain.AckKey{Kind: k.otherKind, Subject: k.subject}); !ok {
				t.Errorf("the %s acknowledgment does not count for its own kind", k.otherKind)
			}
		})
	}
}
