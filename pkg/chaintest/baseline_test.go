package chaintest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cassette"
)

// baselineTests are checked against a baseline: "steady" passes both
// times, "breaks" passes then fails, "heals" fails then passes, and
// "worse" failed before and now fails one more check.
func baselineTests(breaks, heals, worse string) string {
	return `cases:
  - name: steady
    inputs: {q: s}
    expect: {output: {contains: says}}
  - name: breaks
    inputs: {q: b}
    expect: {output: {contains: "` + breaks + `"}}
  - name: heals
    inputs: {q: h}
    expect: {output: {contains: "` + heals + `"}}
  - name: worse
    inputs: {q: w}
    expect:
      output: {contains: nothing}
      status: ` + worse + `
`
}

// A run compared with a saved baseline reports what newly fails and
// newly passes, and fails only on a regression: a case or a check of one
// that passed and now fails.
func TestBaselineFindsRegressions(t *testing.T) {
	p := newProject(t, echoModel, map[string]string{"ask.yaml": askChain, "ask.test.yaml": baselineTests("says", "nope", "succeeded")})
	p.mustRun(t, p.runner(cassette.ModeMissing), "ask.test.yaml")
	first := p.mustRun(t, p.runner(cassette.ModeNone), "ask.test.yaml")
	path := filepath.Join(p.dir, "base.json")
	if err := first.SaveBaseline(path); err != nil {
		t.Fatal(err)
	}
	b, failOn, err := Baselines(path, "")
	if err != nil || failOn != "regression" {
		t.Fatalf("%v %s", err, failOn)
	}
	// the same run again: nothing changed, nothing fails it under regression
	again := p.mustRun(t, p.runner(cassette.ModeNone), "ask.test.yaml")
	if cmp := again.Compare(b, path); cmp.Regressions != 0 || len(cmp.NewlyFailing)+len(cmp.NewlyPassing)+len(cmp.Costs) != 0 {
		t.Errorf("unchanged run: %+v", cmp)
	}
	if again.Failing("regression") || !again.Failing("failure") {
		t.Error("an unchanged run with old failures fails only under --fail-on failure")
	}
	if err := os.WriteFile(filepath.Join(p.dir, "ask.test.yaml"), []byte(baselineTests("nope", "says", "failed")), 0o644); err != nil {
		t.Fatal(err)
	}
	now := p.mustRun(t, p.runner(cassette.ModeNone), "ask.test.yaml")
	cmp := now.Compare(b, path)
	var failing, passing []string
	for _, ch := range cmp.NewlyFailing {
		failing = append(failing, ch.what()+" "+map[bool]string{true: "R"}[ch.Regression])
	}
	for _, ch := range cmp.NewlyPassing {
		passing = append(passing, ch.what())
	}
	wantFailing := []string{"breaks R", "breaks  output R", "worse  status R"}
	for i := range wantFailing {
		wantFailing[i] = filepath.Join(p.dir, "ask.test.yaml") + "  " + wantFailing[i]
	}
	if strings.Join(failing, "\n") != strings.Join(wantFailing, "\n") {
		t.Errorf("newly failing:\n%s\nwant:\n%s", strings.Join(failing, "\n"), strings.Join(wantFailing, "\n"))
	}
	if len(passing) != 2 || !strings.HasSuffix(passing[0], "  heals") || !strings.HasSuffix(passing[1], "  heals  output") {
		t.Errorf("newly passing: %q", passing)
	}
	if cmp.Regressions != 3 || !now.Failing("regression") {
		t.Errorf("regressions %d", cmp.Regressions)
	}
	var text strings.Builder
	if err := now.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"COMPARED WITH " + path + ": 3 regression(s)", "  newly failing:\n", "  breaks: passed -> failed  (regression)", "  newly passing:\n", "  heals: failed -> passed\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js strings.Builder
	if err := now.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Baseline Comparison `json:"baseline"`
	}
	if err := json.Unmarshal([]byte(js.String()), &doc); err != nil || doc.Baseline.Regressions != 3 || len(doc.Baseline.NewlyPassing) != 2 {
		t.Errorf("json baseline: %v %+v", err, doc.Baseline)
	}
}

// Scores, pass rates and costs that changed are listed; a case the
// baseline does not have is a regression only when it fails.
func TestBaselineListsScoreRateAndCostChanges(t *testing.T) {
	one, two := 0.5, 0.9
	rate, required := 1.0, 0.5
	base := &Baseline{Version: 1, Cases: []BaselineCase{{File: "f", Case: "c", Result: Passed, CostUSD: 0.01, PassRate: &rate, Required: &required,
		Assertions: []BaselineAssertion{{Name: "output", Passed: true, Score: &one}}}}}
	low := 0.5
	now := &Report{Files: []*FileReport{{Path: "f", Cases: []*CaseReport{
		{Name: "c", Result: Passed, CostUSD: 0.02, PassRate: &low, RequiredPassRate: &required, Assertions: []Assertion{{Name: "output", Passed: true, Score: &two}}},
		{Name: "new ok", Result: Passed}, {Name: "new bad", Result: Failed}, {Name: "skipped", Result: Skipped}}}}}
	cmp := now.Compare(base, "b.json")
	if len(cmp.Scores) != 1 || cmp.Scores[0].Was != 0.5 || cmp.Scores[0].Now != 0.9 {
		t.Errorf("scores %+v", cmp.Scores)
	}
	if len(cmp.Costs) != 1 || len(cmp.PassRates) != 1 || cmp.PassRates[0].Now != 0.5 {
		t.Errorf("costs %+v rates %+v", cmp.Costs, cmp.PassRates)
	}
	if cmp.Regressions != 1 || len(cmp.NewlyFailing) != 1 || cmp.NewlyFailing[0].Case != "new bad" || cmp.NewlyFailing[0].Was != nil {
		t.Errorf("new cases: %+v", cmp.NewlyFailing)
	}
}

// A baseline that cannot be read, or is not one, is refused naming the
// file; so is a --fail-on that is not a rule.
func TestBadBaselines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "absent.json"), "absent.json: no such file or directory"},
		{dir, "is a directory"},
		{write("text.json", "not json"), "text.json: not a baseline chainrun test --save-baseline wrote"},
		{write("old.json", `{"version": 7, "cases": []}`), "old.json: version 7: this chainrun reads baselines of version 1"},
		{write("field.json", `{"version": 1, "cases": [], "extra": 1}`), `field.json: not a baseline chainrun test --save-baseline wrote: json: unknown field "extra"`},
		{write("case.json", `{"version": 1, "cases": [{"file": "a", "case": "b", "result": "maybe"}]}`), "case.json: cases[0]: a case needs file, case and a result"},
		{write("two.json", `{"version": 1, "cases": []} {}`), "two.json: not a baseline: more follows"},
	} {
		_, _, err := Baselines(tc.path, "")
		if err == nil || !strings.Contains(err.Error(), "--baseline "+tc.path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %s", tc.path, err, tc.want)
		}
	}
	good := write("good.json", `{"version": 1, "cases": []}`)
	for _, tc := range []struct{ base, failOn, want, err string }{
		{"", "", "failure", ""}, {good, "", "regression", ""}, {good, "failure", "failure", ""},
		{"", "regression", "", "--fail-on regression: a regression is against a baseline"}, {good, "regresion", "", `--fail-on "regresion": use regression or failure`},
	} {
		_, got, err := Baselines(tc.base, tc.failOn)
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q %q: %q %v", tc.base, tc.failOn, got, err)
		}
	}
}
