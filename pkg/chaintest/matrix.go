package chaintest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/llm"
)

// checkRuns checks how often and on what a case runs: its pass_rate and
// its models, naming the file and line.
func (f *File) checkRuns(i int, c *Case) error {
	at := func(path ...string) string {
		return fmt.Sprintf("%s:%d: case %q", f.Path, f.line(append([]string{"cases", fmt.Sprint(i)}, path...)...), c.Name)
	}
	if r := c.PassRate; r != nil && !(*r > 0 && *r <= 1) { // .nan is neither
		return fmt.Errorf("%s: pass_rate %s: a share of the runs, above 0 and at most 1 (0.8: four runs in five pass)", at("pass_rate"), yamlNumber(*r))
	}
	for j, m := range c.Models {
		switch {
		case strings.TrimSpace(m) == "":
			return fmt.Errorf("%s: models[%d] is empty: give a model (provider/model) or an alias from config", at("models", fmt.Sprint(j)), j)
		case slices.Contains(c.Models[:j], m):
			return fmt.Errorf("%s: models: %s is listed twice", at("models", fmt.Sprint(j)), m)
		}
	}
	return nil
}

// checkModels refuses a case's model that the configuration cannot
// resolve (an unknown provider, alias or name), and a list of models for
// a chain that asks none (its runs would all be the same), before
// anything runs.
func checkModels(f *File, i int, tc *Case, c *chain.Chain, models cassette.Models) error {
	if len(tc.Models) == 0 {
		return nil
	}
	// a workflow's decisions, and a called chain or workflow, may ask one
	asks := c.Workflow != nil
	eachStep(c, func(s *chain.Step) {
		asks = asks || !s.Kind.Deterministic() || s.Kind == chain.KindChain || s.Kind == chain.KindWorkflow
	})
	if !asks {
		return fmt.Errorf("%s:%d: case %q: models: %s has no step that asks a model: each model would run the same case", f.Path, f.line("cases", fmt.Sprint(i), "models"), tc.Name, c.Name)
	}
	if models == nil {
		return nil
	}
	for j, m := range tc.Models {
		if _, _, err := models.Split(m); err != nil {
			return fmt.Errorf("%s:%d: case %q: models: %v", f.Path, f.line("cases", fmt.Sprint(i), "models", fmt.Sprint(j)), tc.Name, err)
		}
	}
	return nil
}

// modelsOf are the models a case runs on: its list, or "" for once with
// the models the chain names.
func modelsOf(tc *Case) []string {
	if len(tc.Models) == 0 {
		return []string{""}
	}
	return tc.Models
}

// oneModel is a case's models when it runs on one model of its matrix:
// every model step of the chain, whatever model (or fallback) it names,
// asks that one, through the case's session (so that its answers are
// recorded and replayed under that model's name).
type oneModel struct {
	session *cassette.Session
	model   string
}

// Target is the matrix model's target, whatever model was asked for.
func (o oneModel) Target(string) (llm.Target, error) { return o.session.Target(o.model) }
