package chaintest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// flaky answers each prompt "good" but every fourth time "bad".
func flaky() func(llmtest.Request) llmtest.Reply {
	var mu sync.Mutex
	n := map[string]int{}
	return func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		p := r.LastUserMessage()
		n[p]++
		if n[p]%4 == 0 {
			return llmtest.Reply{Text: "bad answer to " + p}
		}
		return llmtest.Reply{Text: "good answer to " + p}
	}
}

const repeatTests = `cases:
  - name: lenient
    inputs: {q: one}
    pass_rate: 0.75
    expect:
      output: {contains: good}
      status: succeeded
  - name: strict
    inputs: {q: two}
    expect:
      output: {contains: good}
`

// With --live --repeat, every run asks the provider afresh (nothing is
// recorded); a case passes when its pass_rate of runs pass, and the
// report gives the rate of the case and of each check.
func TestRepeatLiveAsksTheProviderEachRun(t *testing.T) {
	p := newProject(t, flaky(), map[string]string{"ask.yaml": askChain, "ask.test.yaml": repeatTests})
	r := p.runner(cassette.ModeNone)
	r.Live, r.LiveModels, r.Repeat = true, true, 4
	rep := p.mustRun(t, r, "ask.test.yaml")
	if n := p.srv.Count(); n != 8 {
		t.Errorf("%d model requests, want 8 (two cases, four runs each)", n)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "ask.cassette.yaml")); !os.IsNotExist(err) {
		t.Errorf("a live run wrote a cassette: %v", err)
	}
	lenient, strict := rep.Files[0].Cases[0], rep.Files[0].Cases[1]
	if lenient.Result != Passed || lenient.Runs != 4 || lenient.Passes != 3 || *lenient.PassRate != 0.75 || *lenient.RequiredPassRate != 0.75 {
		t.Errorf("lenient: %+v", lenient)
	}
	out := assertionNamed(t, lenient, "output")
	if out.Passes != 3 || out.Runs != 4 || *out.PassRate != 0.75 || !out.Passed {
		t.Errorf("lenient output assertion: %+v", out)
	}
	if st := assertionNamed(t, lenient, "status"); *st.PassRate != 1 {
		t.Errorf("lenient status assertion: %+v", st)
	}
	if strict.Result != Failed || len(strict.Failures) != 2 ||
		strict.Failures[0] != "pass rate: 3 of 4 runs passed (75%), the case requires 100%" ||
		!strings.HasPrefix(strict.Failures[1], `in 1 of 4 runs: output: want it to contain "good", got "bad answer to two"`) {
		t.Errorf("strict: %+v", strict.Failures)
	}
	var text strings.Builder
	if err := rep.WriteText(&text, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PASS  " + filepath.Join(p.dir, "ask.test.yaml") + "  lenient", "      3 of 4 runs passed (75%; the case requires 75%)", "   75%  output (3 of 4)", "  100%  status (4 of 4)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var junit strings.Builder
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<property name="pass_rate" value="0.75"></property>`, `<property name="assertion.output.pass_rate" value="0.75"></property>`} {
		if !strings.Contains(junit.String(), want) {
			t.Errorf("junit lacks %q:\n%s", want, junit.String())
		}
	}
}

// Without --live, repeats replay the cassette: the same recorded answer
// each run, no request sent.
func TestRepeatReplaysTheCassette(t *testing.T) {
	p := newProject(t, flaky(), map[string]string{"ask.yaml": askChain, "ask.test.yaml": repeatTests})
	p.mustRun(t, p.runner(cassette.ModeMissing), "ask.test.yaml")
	sent := p.srv.Count()
	r := p.runner(cassette.ModeNone)
	r.Repeat = 5
	rep := p.mustRun(t, r, "ask.test.yaml")
	if p.srv.Count() != sent {
		t.Errorf("repeats sent %d requests", p.srv.Count()-sent)
	}
	for _, c := range rep.Files[0].Cases {
		if c.Result != Passed || c.Passes != 5 || c.Runs != 5 {
			t.Errorf("%s: %+v", c.Name, c)
		}
	}
}

// A pass_rate is a share of the runs: above 0, at most 1; anything else
// is refused naming the file and line.
func TestPassRateMustBeAShare(t *testing.T) {
	for _, bad := range []string{"0", "1.5", "-0.2", ".nan", ".inf", "-.inf"} {
		path := testFile(t, "cases:\n  - name: a\n    pass_rate: "+bad+"\n")
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path+":3: case \"a\": pass_rate "+strings.TrimPrefix(bad, "+")) {
			t.Errorf("pass_rate %s: %v", bad, err)
		}
	}
	for _, ok := range []string{"1", "0.01", "0.8"} {
		if _, err := Load(testFile(t, "cases:\n  - name: a\n    pass_rate: "+ok+"\n")); err != nil {
			t.Errorf("pass_rate %s: %v", ok, err)
		}
	}
}

// A value of the wrong type in a test file says what was given and what
// is expected, at its line, not the YAML library's words.
func TestTypeErrorsInAuthorsWords(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"cases:\n  - name: a\n    pass_rate: high\n", ":3: `high` is text here; a number is expected"},
		{"cases:\n  - name: a\n    expect: {max_cost_usd: [1]}\n", ":3: a list is given here; a number is expected"},
		{"cases:\n  - name: a\n    expect:\n      exit_code: zero\n", ":4: `zero` is text here; a whole number is expected"},
	} {
		path := testFile(t, tc.text)
		_, err := Load(path)
		if err == nil || err.Error() != path+tc.want {
			t.Errorf("%q: %v, want %s%s", tc.text, err, path, tc.want)
		}
	}
}

// --repeat counts runs, and does not record.
func TestCheckRepeat(t *testing.T) {
	for _, tc := range []struct {
		n    int
		mode cassette.Mode
		live bool
		bad  string
	}{{0, cassette.ModeNone, false, "--repeat 0: want from 1 to 10000"}, {10001, cassette.ModeNone, false, "--repeat 10001: want from 1 to 10000"}, {10000, cassette.ModeNone, false, ""}, {3, cassette.ModeMissing, false, "record the answers first"}, {2, cassette.ModeAll, false, "record the answers first"},
		{1, cassette.ModeMissing, true, "--record=missing with --live --repeat: a live run asks the providers afresh and records nothing"},
		{3, cassette.ModeNone, false, ""}, {1, cassette.ModeAll, false, ""}, {4, cassette.ModeNone, true, ""}} {
		err := CheckRepeat(tc.n, tc.mode, tc.live)
		if (tc.bad == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.bad)) {
			t.Errorf("%d %s: %v", tc.n, tc.mode, err)
		}
	}
}
