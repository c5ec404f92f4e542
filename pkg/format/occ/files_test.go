package occ

import "github.com/chainrun/chainrun/pkg/kind/compose"

import "github.com/chainrun/chainrun/pkg/kind/model"

import "github.com/chainrun/chainrun/pkg/kind/basic"

import (
	"os"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestOCCFileLoads: OCC's multi-lang-translator (a merge with a model it
// does not use) loads as written.
func TestOCCFileLoads(t *testing.T) {
	src, err := os.ReadFile("testdata/occ/multi-lang-translator.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("multi-lang-translator.yaml", src, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Chain.Steps[len(c.Chain.Steps)-1]; m.Kind != chain.KindMerge || len(m.MergeInputs()) != 5 {
		t.Errorf("merge step %+v", *compose.Merge(m))
	}
}

// TestOCCFlowKindsLoad: OCC's router, evaluator and gate steps load as
// written, OCC's code-review chain among them.
func TestOCCFlowKindsLoad(t *testing.T) {
	src, err := os.ReadFile("testdata/occ/code-review.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse("code-review.yaml", src, chain.Options{})
	if err != nil {
		t.Fatalf("OCC's code-review: %v", err)
	}
	c := l.Chains[0]
	r := c.Step("classify")
	if r.Kind != chain.KindRouter || model.Router(r).DefaultRoute != "fullstack" || len(model.Router(r).Routes) != 5 || r.Kind.Deterministic() {
		t.Errorf("classify = %s, default %q, %d routes", r.Kind, model.Router(r).DefaultRoute, len(model.Router(r).Routes))
	}
	e := c.Step("evaluate_quality")
	if e.Kind != chain.KindEvaluator || !model.Evaluator(e).EvalScoring || model.Threshold(e) != 4 || model.Evaluator(e).OnFail != model.OnFailSkip || model.Retries(e) != 0 {
		t.Errorf("evaluate_quality = %+v", *model.Evaluator(e))
	}
	if !strings.Contains(e.C().Prompt.Refs()[0].Raw, "{security_review}") {
		t.Errorf("the evaluation prompt reads %v", e.C().Prompt.Refs())
	}
	g := mustParse(t, `
name: g
steps:
  - {id: build, type: transform, operation: template, template_str: "no", output_var: built}
  - id: ok
    type: gate
    prompt: "Ship {built}?"
    depends_on: [build]
    timeout_hours: 1.5
    on_timeout: approve
    gate_auto_approve_if: '{built} == "yes"'
`).Chains[0].Step("ok")
	if g.Kind != chain.KindGate || basic.GateTimeout(g).Minutes() != 90 || basic.TimeoutDecision(g) != chain.GateApprove || g.C().AutoApprove == nil {
		t.Errorf("gate = %+v", *basic.Gate(g))
	}
}

// TestOCCFilesWithPreTools: OCC's own chains that need only its pre_tools
// load as written.
func TestOCCFilesWithPreTools(t *testing.T) {
	for _, f := range []string{"full-stack-scaffold.yaml", "repo-health-check.yaml"} {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile("testdata/occ/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Parse(f, data, chain.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
