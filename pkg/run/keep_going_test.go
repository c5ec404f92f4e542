package run

import (
	"fmt"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// keepGoingChain has two failures, each with a dependent, and steps
// independent of both that take longer than the failures.
const keepGoingChain = `
name: t
%s
steps:
  - {id: lint, type: cli, run: 'echo "not formatted: main.go"; exit 1'}
  - {id: unit, type: cli, run: 'sleep 0.3; echo ok'}
  - {id: vet, type: cli, run: 'sleep 0.1; echo "vet: bad" >&2; exit 2'}
  - {id: build, type: cli, run: 'sleep 0.4; echo built'}
  - {id: pkg, type: cli, run: 'echo pkg', depends_on: [build, unit]}
  - {id: fmtfix, type: cli, run: 'echo fix', depends_on: [lint]}
  - {id: report, type: cli, run: 'echo report', depends_on: [vet, pkg]}
`

// TestKeepGoingFinishesIndependentSteps: with keep_going (in the chain
// or from the engine's option) a failure stops only the steps that
// depend on it, each skipped naming the failure it waited on; the others
// run to the end, and the run still fails with its first failure.
func TestKeepGoingFinishesIndependentSteps(t *testing.T) {
	for _, tt := range []struct {
		name, top string
		opts      []Option
	}{
		{"in the chain", "keep_going: true", nil},
		{"from the option", "", []Option{WithKeepGoing(true)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := runChain(t, fmt.Sprintf(keepGoingChain, tt.top), nil, tt.opts...)
			if res.Status != record.Failed || res.Error != "step lint failed: exited with code 1 (and 1 more failed step: vet)" {
				t.Errorf("status %s, error %q", res.Status, res.Error)
			}
			want := map[string]record.StepStatus{"lint": record.StepFailed, "unit": record.StepSucceeded, "vet": record.StepFailed, "build": record.StepSucceeded,
				"pkg": record.StepSucceeded, "fmtfix": record.StepSkipped, "report": record.StepSkipped}
			for id, st := range want {
				if s := step(t, res, id); s.Status != st {
					t.Errorf("%s: %s (%s%s), want %s", id, s.Status, s.Error, s.Reason, st)
				}
			}
			if r := step(t, res, "fmtfix").Reason; r != "not run: step lint failed" {
				t.Errorf("fmtfix reason %q", r)
			}
			if r := step(t, res, "report").Reason; r != "not run: step vet failed" {
				t.Errorf("report reason %q", r)
			}
		})
	}
}

// TestWithoutKeepGoingAFailureCancelsTheRest: the default is fail-fast:
// steps running are cancelled (not failed), the rest never start.
func TestWithoutKeepGoingAFailureCancelsTheRest(t *testing.T) {
	res := runChain(t, fmt.Sprintf(keepGoingChain, "keep_going: false"), nil)
	if res.Status != record.Failed || res.Error != "step lint failed: exited with code 1" {
		t.Errorf("status %s, error %q", res.Status, res.Error)
	}
	for _, id := range []string{"unit", "vet", "build"} {
		if s := step(t, res, id); s.Status != record.StepCancelled {
			t.Errorf("%s: %s, want cancelled", id, s.Status)
		}
	}
	if s := step(t, res, "pkg"); s.Status != record.StepSkipped {
		t.Errorf("pkg: %s, want skipped", s.Status)
	}
}
