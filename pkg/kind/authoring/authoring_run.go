package authoring

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// dry_run and registry end an authoring workflow (mcp-flowgate's SPEC
// §17): dry_run loads the candidate with chainrun's own loader and
// reports {ok, errors, warnings, definitionId, workflows} without running
// it, a candidate that does not load being a result to branch on;
// registry publishes a candidate that loads as DEFINITIONID.yaml beside
// the workflow's file, only when the file opts in
// (flowgate.authoring.write_enabled), never over a file already there.
func init() {
	run.Register(chain.KindDryRun, run.Runner{
		Run: func(_ context.Context, a *run.Attempt) (run.Outcome, error) {
			c, err := loadCandidate(a, "candidate")
			if err != nil {
				return run.Outcome{}, err
			}
			checkNames(c, a.NamesBelow(), a.Chain().File, "")
			return run.Outcome{Value: interp.DataValue(map[string]any{"ok": len(c.errs) == 0, "errors": listOf(c.errs), "warnings": listOf(c.warns), "definitionId": c.id, "workflows": listOf(c.defines)})}, nil
		},
		Plan: func(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = fmt.Sprintf("load the candidate at %s with chainrun's loader, running nothing", candidatePlaces(s))
		},
	})
	run.Register(chain.KindRegistry, run.Runner{
		Run: func(_ context.Context, a *run.Attempt) (run.Outcome, error) { return publish(a) },
		Plan: func(_ run.PlanView, s *chain.Step, p *record.PlannedStep) {
			p.Action = fmt.Sprintf("publish the candidate at %s as %s (if the file's flowgate.authoring.write_enabled is true; never over an existing file)", candidatePlaces(s), filepath.ToSlash(filepath.Join(Registry(s).Dir, "DEFINITIONID.yaml")))
		},
	})
}

// draft is a candidate definition as a workflow file, and what
// chainrun's loader found of it: the workflows it defines, its errors and
// its warnings.
type draft struct {
	id                   string
	text                 []byte
	defines, errs, warns []string
}

// loadCandidate finds the step's candidate and its name (fallback when
// none is set) and loads it.
func loadCandidate(a *run.Attempt, fallback string) (*draft, error) {
	s := a.Step()
	def, from, err := candidateOf(s, a.Document())
	if err != nil {
		return nil, err
	}
	c := &draft{id: fallback}
	doc := a.Document()
	for _, m := range s.C().CandidateIDs {
		if v := m.Resolve(doc); v != nil {
			name, ok := v.(string)
			if !ok || !IsCandidateName(name) {
				return nil, run.Permanent(fmt.Errorf("%s: the candidate's name %v is not a name of letters, digits, '-' and '_'", placeOf(m), v))
			}
			c.id = name
			break
		}
	}
	if c.id == "" {
		return nil, run.Permanent(fmt.Errorf("no name to publish the candidate under: %s selects nothing", idPlaces(s)))
	}
	file, err := CandidateFile(def, c.id)
	if err != nil {
		// text that is no YAML, or no workflow: a candidate that does
		// not load, which dry_run reports and registry refuses
		c.errs = []string{fmt.Sprintf("%s: %v", from, err)}
		return c, nil
	}
	c.text, c.defines, c.errs, c.warns = CheckCandidate(file, c.id+".yaml", a.Parse())
	return c, nil
}

// publish is a registry step: the candidate, loaded, written where the
// step says under the workflow file's directory.
func publish(a *run.Attempt) (run.Outcome, error) {
	s, file := a.Step(), a.Chain().File
	if !a.Chain().WriteEnabled {
		return run.Outcome{}, run.Permanent(fmt.Errorf("registry: publishing is off: %s does not set flowgate.authoring.write_enabled: true", cmp.Or(file, "the workflow's file")))
	}
	if file == "" {
		return run.Outcome{}, run.Permanent(errors.New("registry: the workflow has no file, so no directory to publish into"))
	}
	c, err := loadCandidate(a, "")
	if err != nil {
		return run.Outcome{}, err
	}
	if len(c.errs) > 0 {
		return run.Outcome{}, run.Permanent(fmt.Errorf("registry: candidate %q does not load, so it is not published: %s", c.id, strings.Join(c.errs, "; ")))
	}
	base, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return run.Outcome{}, run.Permanent(fmt.Errorf("registry: %v", err))
	}
	rel := filepath.Join(Registry(s).Dir, c.id+".yaml")
	if checkNames(c, a.NamesBelow(), file, filepath.Join(base, rel)); len(c.errs) > 0 {
		return run.Outcome{}, run.Permanent(fmt.Errorf("registry: candidate %q is not published: %s", c.id, strings.Join(c.errs, "; ")))
	}
	if err := writeNew(base, rel, c.text); err != nil {
		return run.Outcome{}, err
	}
	return run.Outcome{Value: interp.DataValue(map[string]any{"definitionId": c.id, "outcome": "published", "path": filepath.ToSlash(rel), "workflows": listOf(c.defines)})}, nil
}

// idPlaces names where the step looks for its candidate's name.
func idPlaces(s *chain.Step) string {
	var places []string
	for _, m := range s.C().CandidateIDs {
		places = append(places, placeOf(m))
	}
	return strings.Join(places, ", else ")
}

func listOf(items []string) []any {
	out := make([]any, len(items))
	for i, v := range items {
		out[i] = v
	}
	return out
}
