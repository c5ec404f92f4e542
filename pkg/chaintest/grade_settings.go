package chaintest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Settings are config's test: block: the models model-graded matchers
// use when they name none.
type Settings struct {
	// Grader is test.grader: the model rubric: and score: ask.
	Grader string
	// EmbeddingModel is test.embedding_model: the model similar: embeds
	// with.
	EmbeddingModel string
}

// settingKeys are the keys of config's test: block.
var settingKeys = []string{"grader", "embedding_model"}

// ReadSettings reads config's test: block as the config file holds it
// (nil: none).
func ReadSettings(v any) (Settings, error) {
	var s Settings
	if v == nil {
		return s, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return s, fmt.Errorf("config test: is a mapping of %s", strings.Join(settingKeys, ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		text, ok := m[k].(string)
		switch {
		case !slices.Contains(settingKeys, k):
			return s, fmt.Errorf("config test.%s: not a setting (%s)", k, strings.Join(settingKeys, ", "))
		case !ok || text == "":
			return s, fmt.Errorf("config test.%s: a model name", k)
		case k == "grader":
			s.Grader = text
		default:
			s.EmbeddingModel = text
		}
	}
	return s, nil
}

// gradedOps are the matcher's graded operators, those of its JSONPath
// sub-matchers included.
func (m *Matcher) gradedOps() []*gradedOp {
	if m == nil {
		return nil
	}
	out := slices.Clone(m.graded)
	for _, p := range m.paths {
		out = append(out, p.want.gradedOps()...)
	}
	return out
}

// checkGraders refuses a graded matcher of case i that has no model to
// ask (none given, none in config) or names one no provider serves,
// before any case runs.
func (r *Runner) checkGraders(f *File, i int, tc *Case, s Settings) error {
	ms := []*Matcher{&tc.Expect.Output, &tc.Expect.Error}
	for _, name := range slices.Sorted(maps.Keys(tc.Expect.Vars)) {
		ms = append(ms, tc.Expect.Vars[name])
	}
	for _, id := range slices.Sorted(maps.Keys(tc.Expect.Steps)) {
		if e := tc.Expect.Steps[id]; e != nil {
			ms = append(ms, &e.Output, &e.Error)
		}
	}
	for _, m := range ms {
		for _, op := range m.gradedOps() {
			model, key, setting := op.model, "grader", "test.grader"
			if op.kind == "similar" {
				key, setting = "model", "test.embedding_model"
			}
			if model == "" {
				model = map[string]string{"grader": s.Grader, "model": s.EmbeddingModel}[key]
			}
			at := fmt.Sprintf("%s:%d: case %q: %s", f.Path, op.line, tc.Name, op.kind)
			if model == "" {
				return fmt.Errorf("%s has no model to ask: give it %s: MODEL, or set %s in config", at, key, setting)
			}
			if r.Models == nil {
				continue
			}
			if _, _, err := r.Models.Split(model); err != nil {
				return fmt.Errorf("%s: %s %s: %v", at, key, model, err)
			}
		}
	}
	return nil
}
