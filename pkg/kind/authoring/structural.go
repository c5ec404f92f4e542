package authoring

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"reflect"

	"github.com/chainrun/chainrun/pkg/interp"
)

// StructuralFields configure a structural_analysis step (mcp-flowgate's
// executor of that kind): it checks a candidate workflow definition — one
// a model or a person drafts in an authoring workflow — against the
// structural rules (AnalyzeStructure), so the workflow can branch on what
// it finds before it runs or publishes anything. Its output is {issues:
// [{rule, severity, location, message}], issue_count}.
type StructuralFields struct {
	// Definition says where the candidate is; without it the step reads
	// $.arguments.definition, else $.context.candidate_definition, as
	// mcp-flowgate's executor does.
	Definition any `yaml:"definition" doc:"The candidate a structural_analysis step checks: a $.-path ($.context.draft, $.arguments.definition) or the definition itself; text is read as YAML or JSON. Default: $.arguments.definition, else $.context.candidate_definition."`
}

func init() {
	chain.Register(chain.Unit{
		Kind:    chain.KindStructuralAnalysis,
		Order:   230,
		Body:    reflect.TypeFor[StructuralFields](),
		Compile: compileStructural,
	})
}

// compileStructural compiles where a structural_analysis step finds its
// candidate.
func compileStructural(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	if Structural(s).Definition != nil {
		if m := v.Mapped(s, "definition", Structural(s).Definition); m != nil {
			c.Candidates = []*chain.Mapped{m}
		}
		return
	}
	for _, p := range DefaultCandidates {
		m, _ := interp.CompileMapped(p, false)
		c.Candidates = append(c.Candidates, m)
	}
}

// DefaultCandidates are where a structural_analysis step without
// definition: finds its candidate, the first that is set.
var DefaultCandidates = []string{"$.arguments.definition", "$.context.candidate_definition"}

// Structural is the step's StructuralFields, a shared zero value when it has none (read
// only; write through Own).
func Structural(s *chain.Step) *StructuralFields { return chain.Part[StructuralFields](s) }
