package chaintest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cassette"
)

const matrixTests = `cases:
  - name: names its model
    inputs: {q: hi}
    models: [openai/gpt-a, fast]
    expect:
      output: {contains: "gpt-a says"}
  - name: once
    inputs: {q: plain}
    expect:
      output: {contains: "gpt-a says"}
`

// A case that lists models runs once per model (an alias resolved as
// config says), every model step asking that model; each model's
// answers are recorded under its own name and replayed; the report is a
// table of cases × models.
func TestMatrixRunsACaseOncePerModel(t *testing.T) {
	for _, mode := range []cassette.Mode{cassette.ModeMissing, cassette.ModeAll} {
		t.Run(string(mode), func(t *testing.T) {
			p := newProject(t, echoModel, map[string]string{"ask.yaml": askChain, "ask.test.yaml": matrixTests})
			// one run at a time: each model's run starts after the one
			// before recorded (--record=all drops a case's old
			// recordings once, not those its other runs just made)
			r := p.runner(mode)
			r.Parallel = 1
			checkMatrix(t, p.mustRun(t, r, "ask.test.yaml"))
			tape, err := os.ReadFile(filepath.Join(p.dir, "ask.cassette.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			// each recording names its model twice: the request's and the answer's
			for _, want := range []string{"model: gpt-a", "model: gpt-fast"} {
				if strings.Count(string(tape), want+"\n") != map[string]int{"model: gpt-a": 4, "model: gpt-fast": 2}[want] {
					t.Errorf("cassette: %q %d times:\n%s", want, strings.Count(string(tape), want+"\n"), tape)
				}
			}
			// replayed with no requests
			sent := p.srv.Count()
			checkMatrix(t, p.mustRun(t, p.runner(cassette.ModeNone), "ask.test.yaml"))
			if p.srv.Count() != sent {
				t.Errorf("replay sent %d requests", p.srv.Count()-sent)
			}
		})
	}
}

func checkMatrix(t *testing.T, rep *Report) {
	t.Helper()
	cases := rep.Files[0].Cases
	if len(cases) != 3 {
		t.Fatalf("%d case reports, want 3", len(cases))
	}
	for i, want := range []struct{ model, result string }{{"openai/gpt-a", Passed}, {"fast", Failed}, {"", Passed}} {
		if cases[i].Model != want.model || cases[i].Result != want.result {
			t.Errorf("case %d: %s on %q, want %s on %q (%v)", i, cases[i].Result, cases[i].Model, want.result, want.model, cases[i].Failures)
		}
	}
	if !strings.Contains(strings.Join(cases[1].Failures, "\n"), `got "gpt-fast says: hi"`) {
		t.Errorf("fast: %v", cases[1].Failures)
	}
	m := rep.Matrix()
	if m == nil || strings.Join(m.Models, ",") != "openai/gpt-a,fast," || len(m.Rows) != 2 {
		t.Fatalf("matrix %+v", m)
	}
	if r := m.Rows[0].Results; r["openai/gpt-a"] != "PASS" || r["fast"] != "FAIL" {
		t.Errorf("row %+v", r)
	}
	var text strings.Builder
	if err := rep.WriteText(&text, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"names its model [fast] (", "MATRIX\n  case              openai/gpt-a   fast   (chain's models)\n  names its model   PASS           FAIL   -\n  once              -              -      PASS\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var junit strings.Builder
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `<testcase name="names its model [fast]"`) || !strings.Contains(junit.String(), `tests="3" failures="1"`) {
		t.Errorf("junit:\n%s", junit.String())
	}
}

// A model the configuration cannot resolve is refused before anything
// runs, naming the file and line, and so is a matrix for a chain that
// asks no model; an empty or repeated one when the file is read.
func TestMatrixRefusesUnknownModels(t *testing.T) {
	p := newProject(t, echoModel, map[string]string{"ask.yaml": askChain,
		"bad.test.yaml":   "chain: ask\ncases:\n  - name: a\n    inputs: {q: x}\n    models:\n      - openai/gpt-a\n      - nosuch/model\n",
		"cycle.test.yaml": "chain: ask\ncases:\n  - name: a\n    inputs: {q: x}\n    models: [whatisthis]\n",
		"ask.test.yaml":   "cases:\n  - name: a\n    inputs: {q: x}\n    models: [fast, fast]\n",
		"echo.yaml":       "name: echo\nsteps:\n  - id: say\n    type: cli\n    command: echo\n    args: [hi]\n",
		"echo.test.yaml":  "cases:\n  - name: a\n    models: [fast]\n"})
	for name, want := range map[string]string{
		"bad.test.yaml":   "bad.test.yaml:7: case \"a\": models: model \"nosuch/model\": no provider named \"nosuch\"",
		"cycle.test.yaml": "cycle.test.yaml:5: case \"a\": models: model \"whatisthis\": cannot tell its provider",
		"ask.test.yaml":   "ask.test.yaml:4: case \"a\": models: fast is listed twice",
		"echo.test.yaml":  "echo.test.yaml:3: case \"a\": models: echo has no step that asks a model",
	} {
		r := p.runner(cassette.ModeNone)
		_, err := p.run(t, r, name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", name, err, want)
		}
		if p.srv.Count() != 0 {
			t.Errorf("%s: a request was sent", name)
		}
	}
}
