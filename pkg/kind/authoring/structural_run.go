package authoring

import (
	"context"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// A structural_analysis step checks a candidate workflow definition
// against mcp-flowgate's structural rules (chain.AnalyzeStructure) and
// succeeds with what it found, {issues, issue_count}, for the workflow to
// branch on: a candidate with issues is a result, not a failure. A
// candidate that is nowhere, or is not a definition, fails the step.
func init() {
	run.Register(chain.KindStructuralAnalysis, run.Runner{
		Run: func(_ context.Context, a *run.Attempt) (run.Outcome, error) {
			s := a.Step()
			candidate, from, err := candidateOf(s, a.Document())
			if err != nil {
				return run.Outcome{}, err
			}
			issues, err := AnalyzeStructure(candidate)
			if err != nil {
				return run.Outcome{}, run.Permanent(fmt.Errorf("%s: %v", from, err))
			}
			list := make([]any, len(issues))
			for i, is := range issues {
				list[i] = map[string]any{"rule": is.Rule, "severity": is.Severity, "location": is.Location, "message": is.Message}
			}
			return run.Outcome{Value: interp.DataValue(map[string]any{"issues": list, "issue_count": len(issues)})}, nil
		},
		Plan: func(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = fmt.Sprintf("structural analysis of the candidate at %s (%s)", candidatePlaces(s), strings.Join(StructuralRules, ", "))
		},
	})
}

// candidateOf is the definition the step checks, the first of its
// places that is set in doc (the step's values), and the place it was
// found.
func candidateOf(s *chain.Step, doc map[string]any) (any, string, error) {
	for _, m := range s.C().Candidates {
		if v := m.Resolve(doc); v != nil {
			return v, placeOf(m), nil
		}
	}
	return nil, "", run.Permanent(fmt.Errorf("no candidate definition to analyse: %s selects nothing", candidatePlaces(s)))
}

// candidatePlaces names where the step looks for its candidate.
func candidatePlaces(s *chain.Step) string {
	var places []string
	for _, m := range s.C().Candidates {
		places = append(places, placeOf(m))
	}
	return strings.Join(places, ", else ")
}

func placeOf(m *chain.Mapped) string {
	if m.Raw != "" {
		return m.Raw
	}
	return "definition"
}
