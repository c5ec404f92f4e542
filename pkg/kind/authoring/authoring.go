package authoring

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/chainrun/chainrun/pkg/interp"
	yaml "go.yaml.in/yaml/v4"
)

// This file holds the authoring kinds a workflow that drafts workflows
// ends with (mcp-flowgate's SPEC §17/§18): dry_run loads a candidate as
// chainrun would, registry publishes it into the chains directory, and
// the file's gate (flowgate.authoring.write_enabled) that lets it.

// RegistryFields configure a registry step (mcp-flowgate's executor of
// that kind): where, under the directory of the workflow's own file, the
// candidate is published as DEFINITIONID.yaml. Publishing is a write a
// file must opt into: flowgate.authoring.write_enabled: true.
type RegistryFields struct {
	Dir string `yaml:"dir" doc:"Where a registry step publishes its candidate (as DEFINITIONID.yaml): a directory relative to the workflow's own file, inside it (no .., not absolute). Default: the file's own directory (the chains directory)."`
}

// DefaultCandidateIDs are where a dry_run or registry step without
// definitionId: finds the candidate's name, the first that is set.
var DefaultCandidateIDs = []string{"$.arguments.definitionId", "$.arguments.definition_id", "$.context.candidate_definition_id"}

// CandidateName is what a published definition may be called: its file's
// name, so nothing that leaves the directory or hides in it.
var candidateName = chain.LazyRegexp(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// IsCandidateName reports whether name may name a published definition.
func IsCandidateName(name string) bool { return candidateName().MatchString(name) }

func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindDryRun,
		Order:   240,
		Also:    []string{"definition", "definitionId"},
		Compile: compileAuthoring,
	})
}

func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindRegistry,
		Order:   250,
		Body:    reflect.TypeFor[RegistryFields](),
		Also:    []string{"definition", "definitionId"},
		Check:   checkRegistry,
		Compile: compileAuthoring,
	})
}

// compileAuthoring compiles where a dry_run or registry step finds its
// candidate and its name, as structural_analysis finds the candidate.
func compileAuthoring(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	compileStructural(v, s, c)
	if s.Workflow().DefinitionID != "" {
		if IsCandidateName(s.Workflow().DefinitionID) || strings.HasPrefix(s.Workflow().DefinitionID, "$.") {
			if m := v.Mapped(s, "definitionId", s.Workflow().DefinitionID); m != nil {
				c.CandidateIDs = []*chain.Mapped{m}
			}
		} else {
			v.Errorf(s.At("definitionId"), "%s: definitionId %q is a $.-path or a name of letters, digits, '-' and '_'", s.Subject(), s.Workflow().DefinitionID)
		}
		return
	}
	for _, p := range DefaultCandidateIDs {
		m, _ := interp.CompileMapped(p, false)
		c.CandidateIDs = append(c.CandidateIDs, m)
	}
}

func checkRegistry(v chain.Checker, s *chain.Step) {
	if Registry(s).Dir != "" && !filepath.IsLocal(Registry(s).Dir) {
		v.Errorf(s.At("dir"), "%s: dir %q must stay inside the workflow file's directory (relative, no ..)", s.Subject(), Registry(s).Dir)
	}
}

// CandidateFile is a candidate definition as the workflow file it would
// be: a file ({workflows, ...}) as it is, one bare workflow
// ({initialState, states}) under workflows.ID; its YAML or JSON text is
// read first. Anything else is an error, not a file.
func CandidateFile(candidate any, id string) (map[string]any, error) {
	def, err := readCandidate(candidate)
	switch {
	case err != nil:
		return nil, err
	case def["workflows"] != nil:
		return def, nil
	case def["initialState"] != nil || def["states"] != nil:
		return map[string]any{"version": "1.0.0", "workflows": map[string]any{id: def}}, nil
	}
	return nil, fmt.Errorf("the definition holds neither workflows nor a workflow's initialState and states")
}

// CheckCandidate loads a candidate file as chainrun loads a chains
// directory's file, named name, and returns its YAML text, the names of
// its workflows and what the loader found: errors (the candidate would
// not load) and warnings, each file:line:col in that text. parse is the
// loader (load.Parse, which reads every format).
func CheckCandidate(file map[string]any, name string, parse func(file string, data []byte, opts chain.Options) (*chain.Loaded, error)) (text []byte, workflows, errs, warnings []string) {
	text, err := yaml.Marshal(file)
	if err != nil {
		return nil, nil, []string{fmt.Sprintf("%s: %v", name, err)}, nil
	}
	l, err := parse(name, text, chain.Options{})
	if err != nil {
		if ve, ok := err.(*chain.ValidationError); ok {
			for _, dg := range ve.Diagnostics {
				errs = append(errs, dg.String())
			}
		} else {
			errs = append(errs, err.Error())
		}
		return text, nil, errs, nil
	}
	for _, c := range l.Chains {
		workflows = append(workflows, c.Name)
	}
	for _, w := range l.Warnings {
		warnings = append(warnings, w.String())
	}
	return text, workflows, nil, warnings
}

// Registry is the step's RegistryFields, a shared zero value when it has none (read
// only; write through Own).
func Registry(s *chain.Step) *RegistryFields { return chain.Part[RegistryFields](s) }
