package chaintest

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/event"
	"github.com/chainrun/chainrun/pkg/run/response"
	"go.yaml.in/yaml/v4"
)

func TestLoadNamesFileAndLine(t *testing.T) {
	for name, tc := range map[string]struct{ text, want string }{
		"empty":          {"", "empty test file"},
		"no cases":       {"chain: x\n", "no cases"},
		"unknown field":  {"cases:\n  - name: a\n    expects: {}\n", ":3: unknown field expects"},
		"no name":        {"cases:\n  - expect: {status: succeeded}\n", ":2: case 1 has no name"},
		"duplicate":      {"cases:\n  - name: a\n  - name: a\n", `:3: a second case named "a" (the first is at line 2)`},
		"bad time":       {"cases:\n  - name: a\n    mocks: {time: tomorrow}\n", `:3: case "a": mocks.time "tomorrow" is not an RFC 3339 time`},
		"bad mock field": {"cases:\n  - name: a\n    mocks:\n      steps:\n        s: {stdout: x}\n", `:5: a step mock has no field "stdout"`},
		"bad operator":   {"cases:\n  - name: a\n    expect:\n      output: {containz: x}\n", ":4: containz: not an operator; did you mean contains?"},
		"bad regex":      {"cases:\n  - name: a\n    expect:\n      output: {regex: '('}\n", "regex: error parsing regexp"},
		"bad jsonpath":   {"cases:\n  - name: a\n    expect:\n      output: {jsonpath: {'$[': 1}}\n", "jsonpath:"},
		"bad retry":      {"cases:\n  - name: a\n    mocks:\n      models:\n        s: [{status: 429, retry_after: soon}]\n", `retry_after "soon" is not a duration`},
		"input mapping":  {"cases:\n  - name: a\n    inputs: {x: {y: 1}}\n", "an input value is a string, number or boolean"},
	} {
		t.Run(name, func(t *testing.T) {
			path := testFile(t, tc.text)
			_, err := Load(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), path) {
				t.Errorf("got %v, want %q after the path", err, tc.want)
			}
		})
	}
}

// testFile writes text as a test file and returns its path.
func testFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.test.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func matcher(t *testing.T, text string) *Matcher {
	t.Helper()
	var m Matcher
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func TestMatchers(t *testing.T) {
	data := map[string]any{"verdict": "ok", "notes": []any{"a", "b"}, "score": 0.9}
	for _, tc := range []struct {
		matcher string
		value   any
		fails   string // "" when it must hold
	}{
		{"hello", "hello", ""},
		{"hello", "hello!", `want "hello", got "hello!"`},
		{"42", float64(42), ""},
		{"true", true, ""},
		{"{verdict: ok, notes: [a, b], score: 0.9}", data, ""},
		{"{equals: {verdict: ok}}", data, "want {"},
		{`'{"verdict": "ok", "notes": ["a", "b"], "score": 0.9}'`, data, ""},
		{"{equals: {verdict: ok, notes: [a, b], score: 0.9}}", `{"verdict":"ok","notes":["a","b"],"score":0.9}`, ""},
		{"{contains: [ok, notes]}", data, ""},
		{"{contains: nope}", "hello", `want it to contain "nope"`},
		{"{not_contains: secret}", "all public", ""},
		{"{not_contains: secret}", "a secret", "not to contain"},
		{"{regex: '^h.*o$'}", "hello", ""},
		{"{regex: '^x'}", "hello", "to match /^x/"},
		{"jsonpath:\n  $.verdict: ok\n  $.notes[1]: b\n  $.score: {regex: '^0\\.9$'}\n", data, ""},
		{"{jsonpath: {$.verdict: bad}}", data, `jsonpath $.verdict: want "bad", got "ok"`},
		{"{jsonpath: {$.missing: 1}}", data, "selects nothing"},
		{"{json_schema: {type: object, required: [verdict, why]}}", data, "does not hold to json_schema"},
		{"{json_schema: {type: object, required: [verdict]}}", `{"verdict": "ok"}`, ""},
	} {
		err := matcher(t, tc.matcher).Check(tc.value, nil)
		switch {
		case tc.fails == "" && err != nil:
			t.Errorf("%s on %v: %v", tc.matcher, tc.value, err)
		case tc.fails != "" && (err == nil || !strings.Contains(err.Error(), tc.fails)):
			t.Errorf("%s on %v: got %v, want %q", tc.matcher, tc.value, err, tc.fails)
		}
	}
	golden := "line one\nline two"
	if err := matcher(t, "{golden: out.txt}").Check("line one\nline 2", &golden); err == nil || !strings.Contains(err.Error(), `line 2: want "line two", got "line 2"`) {
		t.Errorf("golden: %v", err)
	}
}

func TestDeciderTakesEachVisitsChoiceThenPauses(t *testing.T) {
	var d Decisions
	if err := yaml.Unmarshal([]byte("[revise, {take: approve, args: {note: fine, n: 2}}]"), &d); err != nil {
		t.Fatal(err)
	}
	decide := decider(map[string]Decisions{"review": d})
	var got []string
	for range 3 {
		c, ok := decide(context.Background(), response.Decision{State: "review"})
		got = append(got, map[bool]string{true: c.Transition, false: "(pause)"}[ok])
		if c.Transition == "approve" && (c.Args["note"] != "fine" || c.Args["n"] != float64(2)) {
			t.Errorf("args %v", c.Args)
		}
	}
	if strings.Join(got, ",") != "revise,approve,(pause)" {
		t.Errorf("got %v", got)
	}
	if _, ok := decide(context.Background(), response.Decision{State: "other"}); ok {
		t.Error("a state with no decision was decided")
	}
	if decider(nil) != nil {
		t.Error("no decisions must leave the run's own deciders")
	}
	var bad Decisions
	if err := yaml.Unmarshal([]byte("{args: {x: 1}}"), &bad); err == nil || !strings.Contains(err.Error(), "needs take") {
		t.Errorf("a decision with no take: %v", err)
	}
}

func TestRanIgnoresSkippedAndHandlerSteps(t *testing.T) {
	o := &outcome{events: []event.Event{
		{Type: event.StepStarted, Step: "a"}, {Type: event.StepStarted, Step: "b"},
		{Type: event.StepFinished, Step: "b", Status: event.Skipped}, {Type: event.StepFinished, Step: "a", Status: event.OK},
		{Type: event.StepFinished, Step: "a", Status: event.OK}, {Type: event.StepFinished, Step: "h", Status: event.OK, Handler: "on_exit"},
	}}
	if got := o.sequence(); strings.Join(got, ",") != "a,a" {
		t.Errorf("sequence %v", got)
	}
	if ran := o.ran(); len(ran) != 1 || !ran["a"] {
		t.Errorf("ran %v", ran)
	}
}

func TestEnvSecrets(t *testing.T) {
	got := EnvSecrets([]string{"ANTHROPIC_API_KEY=sk-1", "GITHUB_TOKEN=ghp", "HOME=/root", "DB_PASSWORD= ", "my_secret=x"})
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "environment variable ANTHROPIC_API_KEY,environment variable GITHUB_TOKEN,environment variable my_secret" {
		t.Errorf("got %v", names)
	}
}

// TestCredentialNames: the names that hold credentials by convention,
// whatever their source, and look-alikes that do not.
func TestCredentialNames(t *testing.T) {
	for _, name := range []string{"ANTHROPIC_API_KEY", "SERVICE_TOKEN", "GITHUB_TOKEN", "DB_PASS", "DB_PASSWORD", "MYSQL_PWD", "PRIVATE_KEY",
		"GH_PAT", "AZDO_PAT", "MY_SECRET_VALUE", "client_secret", "STRIPE_KEY", "API_KEY_2", "AWS_SECRET_ACCESS_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
		"SSH_PASSPHRASE", "NPM_AUTH", "SENTRY_DSN", "SESSION_COOKIE", "KEY", "PASS", "OPENAI_APIKEY", "x_token_file"} {
		if !CredentialName(name) {
			t.Errorf("%s: not taken for a credential", name)
		}
	}
	for _, name := range []string{"HOME", "PATH", "PWD", "OLDPWD", "KEYBOARD", "MONKEY_COUNT", "SSH_AUTH_SOCK", "GITHUB_REPOSITORY", "AWS_REGION",
		"XDG_SESSION_ID", "PASSAGE", "PATTERN", "COMPASS", "DATABASE_HOST", "LANG"} {
		if CredentialName(name) {
			t.Errorf("%s: taken for a credential", name)
		}
	}
}

// TestVarSecretsFindPasswordsInURLs: a URL's password is a secret
// whatever the variable's name; a URL without one, or a user alone, is
// not.
func TestVarSecretsFindPasswordsInURLs(t *testing.T) {
	got := VarSecrets("dotenv variable", map[string]string{
		"DATABASE_URL": "postgres://app:pw_in_url_1@db:5432/app",
		"CACHE":        "redis://:only_pw_2@cache:6379/0",
		"MIRROR":       "https://ada:p%40ss_3@mirror.example/x",
		"HOMEPAGE":     "https://example.com/docs?x=1",
		"PG":           "postgres://postgres@localhost/db",
		"NOT_A_URL":    "a@b:c",
	})
	var seen []string
	for _, s := range got {
		seen = append(seen, s.Name+"="+s.Value)
	}
	want := "the password in dotenv variable CACHE=only_pw_2,the password in dotenv variable DATABASE_URL=pw_in_url_1,the password in dotenv variable MIRROR=p@ss_3"
	if strings.Join(seen, ",") != want {
		t.Errorf("got  %v\nwant %s", seen, want)
	}
}

func TestJUnitIsWellFormed(t *testing.T) {
	rep := &Report{Files: []*FileReport{{Path: "chains/a.test.yaml", Chain: "a", Cases: []*CaseReport{
		{Name: "ok", Result: Passed}, {Name: `bad <"&">`, Result: Failed, Failures: []string{"status: want x", "output: <y>"}}, {Name: "later", Result: Skipped, Skip: "wip"},
	}}}}
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var back junitSuites
	if err := xml.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	s := back.Suites[0]
	if back.Tests != 3 || back.Failures != 1 || back.Skipped != 1 || s.Cases[1].Name != `bad <"&">` || s.Cases[1].Failure.Text != "status: want x\noutput: <y>" {
		t.Errorf("round trip: %+v", back)
	}
}

func TestNullsAndSkips(t *testing.T) {
	for text, want := range map[string]string{
		"cases:\n  - name: a\n    expect:\n      output: ~\n":            ":4: expect.output is null",
		"cases:\n  - name: a\n    mocks:\n      steps:\n        s: ~\n":  ":5: mocks.steps.s is null",
		"cases:\n  - name: a\n    expect:\n      steps:\n        s: ~\n": ":5: expect.steps.s is null",
		"cases:\n  -\n": ":2: case 1 is empty",
		"cases:\n  - name: a\n    expect:\n      output: {contains: x, contains: y}\n":     "contains is given twice",
		"cases:\n  - name: a\n    expect:\n      output: {jsonpath: {$.a: {golden: f}}}\n": "golden compares a whole value",
	} {
		path := testFile(t, text)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
	}
	path := testFile(t, "cases:\n  - {name: a, skip: false, expect: {output: {equals: ~}}}\n  - {name: b, skip: true}\n")
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Cases[0].Skip != "" || f.Cases[1].Skip == "" {
		t.Errorf("skips %q %q", f.Cases[0].Skip, f.Cases[1].Skip)
	}
	if err := f.Cases[0].Expect.Output.Check(nil, nil); err != nil {
		t.Errorf("equals: ~ against null: %v", err)
	}
}

func TestReportLinesMaskSecrets(t *testing.T) {
	o := &outcome{secrets: []cassette.Secret{{Name: "secret input token", Value: `hunter2"pw`}}}
	got := o.mask(`step ask: messages[0].content: was "is hunter2\"pw ok?", now "is hunter2"pw ok"`)
	if strings.Contains(got, "hunter2") {
		t.Errorf("secret shown: %s", got)
	}
}

func TestCheckMocksRefusesWhatTheChainLacks(t *testing.T) {
	l, err := chain.Parse("w.yaml", []byte(`version: "1"
workflows:
  w:
    inputSchema: {type: object, required: [service], properties: {service: {type: string}}, additionalProperties: false}
    initialState: a
    states:
      a:
        transitions:
          go: {target: b, actor: human}
      b:
        transitions:
          on: {target: c, actor: deterministic}
      c: {terminal: true}
`), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"cases:\n  - name: a\n    inputs: {service: x, servise: y}\n    expect: {status: paused}\n": `inputs: w: unknown input "servise"`,
		"cases:\n  - name: a\n    inputs: {servise: y}\n    expect: {status: refused}\n":            "",
		"cases:\n  - name: a\n    inputs: {service: x}\n    mocks: {decisions: {a: stop}}\n":        "state a has no transition stop (it has: go)",
		"cases:\n  - name: a\n    inputs: {service: x}\n    mocks: {decisions: {b: on}}\n":          "state b is no decision point",
		"cases:\n  - name: a\n    inputs: {service: x}\n    mocks: {steps: {nope: {output: x}}}\n":  "w has no step nope",
	} {
		path := testFile(t, text)
		f, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		err = checkMocks(f, 0, f.Cases[0], l.Chain)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
	}
}
