package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
)

// A structural_analysis step checks a candidate workflow definition
// against mcp-flowgate's structural rules (chain.AnalyzeStructure) and
// succeeds with what it found, {issues, issue_count}, for the workflow to
// branch on: a candidate with issues is a result, not a failure. A
// candidate that is nowhere, or is not a definition, fails the step.
func init() {
	register(chain.KindStructuralAnalysis, kind{
		run: func(_ *execution, _ context.Context, s *chain.Step, sc scope, _ *tries) (outcome, error) {
			candidate, from, err := candidateOf(s, sc)
			if err != nil {
				return outcome{}, err
			}
			issues, err := chain.AnalyzeStructure(candidate)
			if err != nil {
				return outcome{}, &permanentError{fmt.Errorf("%s: %v", from, err)}
			}
			list := make([]any, len(issues))
			for i, is := range issues {
				list[i] = map[string]any{"rule": is.Rule, "severity": is.Severity, "location": is.Location, "message": is.Message}
			}
			return outcome{value: DataValue(map[string]any{"issues": list, "issue_count": len(issues)})}, nil
		},
		plan: func(_ planView, s *chain.Step, p *PlannedStep) {
			p.Action = fmt.Sprintf("structural analysis of the candidate at %s (%s)", candidatePlaces(s), strings.Join(chain.StructuralRules, ", "))
		},
	})
}

// candidateOf is the definition the step checks, the first of its
// places that is set, and the place it was found.
func candidateOf(s *chain.Step, sc scope) (any, string, error) {
	doc := sc.document()
	for _, m := range s.C().Candidates {
		if v := m.Resolve(doc); v != nil {
			return v, placeOf(m), nil
		}
	}
	return nil, "", &permanentError{fmt.Errorf("no candidate definition to analyse: %s selects nothing", candidatePlaces(s))}
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
