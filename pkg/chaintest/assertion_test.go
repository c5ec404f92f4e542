package chaintest

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cassette"
)

// Every check a case makes is recorded, those that hold too; failures
// are listed as before.
func TestAssertionsRecordEveryCheck(t *testing.T) {
	p := newProject(t, echoModel, map[string]string{
		"ask.yaml": askChain,
		"ask.test.yaml": `cases:
  - name: mixed
    inputs: {q: hello}
    mocks:
      models:
        think: ["the sky is green"]
    expect:
      status: succeeded
      exit_code: 0
      output: "the sky is blue"
      vars:
        answer: {contains: sky}
        nothere: x
      steps:
        think: {status: succeeded, model_calls: 1, output: {regex: "^the"}}
      path: [think]
      model_calls: 2
`})
	rep := p.mustRun(t, p.runner(cassette.ModeNone), "ask.test.yaml")
	cr := rep.Files[0].Cases[0]
	want := map[string]bool{"status": true, "exit_code": true, "output": false, "vars.answer": true, "vars.nothere": false,
		"steps.think.status": true, "steps.think.model_calls": true, "steps.think.output": true, "path": true, "model_calls": false}
	if len(cr.Assertions) != len(want) {
		t.Errorf("%d assertions, want %d: %+v", len(cr.Assertions), len(want), cr.Assertions)
	}
	for name, passed := range want {
		a := assertionNamed(t, cr, name)
		if a.Passed != passed {
			t.Errorf("%s: passed %v, want %v (%s)", name, a.Passed, passed, a.Message)
		}
		if passed != (a.Message == "") {
			t.Errorf("%s: message %q for passed=%v", name, a.Message, passed)
		}
	}
	out := assertionNamed(t, cr, "output")
	if out.Want != "the sky is blue" || out.Got != "the sky is green" {
		t.Errorf("output want/got = %q/%q", out.Want, out.Got)
	}
	// the failures are the lines they always were, in order
	wantLines := []string{`output: want "the sky is blue", got "the sky is green"`, "vars.nothere: the run has no variable nothere", "model_calls: want 2, got 1"}
	if strings.Join(cr.Failures, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(cr.Failures, "\n"), strings.Join(wantLines, "\n"))
	}
}

// A graded check hands its score and reason to the checker, which keeps
// them on the assertion, passing or not.
func TestAssertionKeepsAVerdict(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		passed      bool
	}{{"held", "yes", true}, {"failed", "no", false}} {
		t.Run(tc.name, func(t *testing.T) {
			k := &checker{}
			score := 0.25
			k.assert("output", matcher(t, `{contains: "yes"}`).Check(tc.value, nil), &Verdict{Score: &score, Reason: "it says " + tc.value})
			a := k.assertions[0]
			if a.Passed != tc.passed || a.Score == nil || *a.Score != 0.25 || a.Reason != "it says "+tc.value {
				t.Errorf("assertion %+v", a)
			}
			if (len(k.failures) == 0) != tc.passed {
				t.Errorf("failures %v", k.failures)
			}
		})
	}
}

// A case's secrets are masked in its checks as in its failures: the
// message, and the texts a report diffs.
func TestAssertionsMaskSecrets(t *testing.T) {
	p := newProject(t, echoModel, map[string]string{
		"tell.yaml": `name: tell
inputs:
  - name: token
    secret: true
steps:
  - id: say
    type: cli
    command: echo
    args: ["token={input.token}"]
    output_var: said
output: said
`,
		"tell.test.yaml": `cases:
  - name: leaks
    inputs: {token: s3cr3t-value-42}
    expect:
      output: "token=other"
      vars:
        said: {contains: "nothing"}
`})
	rep := p.mustRun(t, p.runner(cassette.ModeNone), "tell.test.yaml")
	cr := rep.Files[0].Cases[0]
	if len(cr.Assertions) != 2 {
		t.Fatalf("assertions %+v", cr.Assertions)
	}
	for _, a := range cr.Assertions {
		for _, text := range []string{a.Message, a.Want, a.Got, a.Reason} {
			if strings.Contains(text, "s3cr3t") {
				t.Errorf("%s: the secret shows: %q", a.Name, text)
			}
		}
	}
	if out := assertionNamed(t, cr, "output"); out.Got != "token=***" || !strings.Contains(out.Message, `got "token=***"`) {
		t.Errorf("output: %+v", out)
	}
}
