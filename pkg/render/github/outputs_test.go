package github

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// outputsRenderer is a renderer in GitHub Actions whose $GITHUB_OUTPUT is
// a file of the test's.
func outputsRenderer(t *testing.T) (*Renderer, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "output")
	g := New(func(k string) string {
		return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": file}[k]
	}, t.TempDir(), &bytes.Buffer{}, Options{})
	return g, file
}

func TestOutputs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		output any
		code   int
		want   string
	}{
		{"a line", "v1.2.3", 0, "run_id=r1\nstatus=succeeded\nexit_code=0\noutput=v1.2.3\n"},
		{"no output", nil, 1, "run_id=r1\nstatus=succeeded\nexit_code=1\noutput=\n"},
		{"JSON data", map[string]any{"url": "https://x", "n": 2}, 0, `run_id=r1
status=succeeded
exit_code=0
output={"n":2,"url":"https://x"}
`},
		{"lines", "notes:\n- one\n- two\n", 0, "run_id=r1\nstatus=succeeded\nexit_code=0\noutput<<D1\nnotes:\n- one\n- two\n\nD1\n"},
		{"a carriage return", "a\rb", 0, "run_id=r1\nstatus=succeeded\nexit_code=0\noutput<<D1\na\rb\nD1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			delimiters(t, "D1")
			g, file := outputsRenderer(t)
			res := &record.Result{RunID: "r1", Status: record.Succeeded, Output: tc.output}
			g.Outputs(res, tc.code)
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %v", res.Warnings)
			}
		})
	}
}

// delimiters makes newDelimiter return these, in turn, for the test.
func delimiters(t *testing.T, ds ...string) {
	old := newDelimiter
	t.Cleanup(func() { newDelimiter = old })
	newDelimiter = func() string {
		d := ds[0]
		if len(ds) > 1 {
			ds = ds[1:]
		}
		return d
	}
}

// TestOutputsDelimiterNotInValue: a value that holds the delimiter drawn
// gets another, so it cannot end its output early and set others.
func TestOutputsDelimiterNotInValue(t *testing.T) {
	delimiters(t, "ghadelimiter_1", "ghadelimiter_2")
	g, file := outputsRenderer(t)
	value := "line\nghadelimiter_1\nstatus=succeeded"
	g.Outputs(&record.Result{RunID: "r1", Status: record.Failed, Output: value}, 1)
	got, _ := os.ReadFile(file)
	want := "output<<ghadelimiter_2\n" + value + "\nghadelimiter_2\n"
	if !strings.HasSuffix(string(got), want) {
		t.Errorf("got %q, want it to end %q", got, want)
	}
}

// TestOutputsRealDelimiter: the delimiter is random, never the same twice.
func TestOutputsRealDelimiter(t *testing.T) {
	a, b := newDelimiter(), newDelimiter()
	if a == b || !strings.HasPrefix(a, "ghadelimiter_") || len(a) != len("ghadelimiter_")+32 {
		t.Errorf("delimiters %q and %q", a, b)
	}
}

// TestOutputsNeverWriteSecrets: a secret input's value, in any form the
// renderer registered with ::add-mask::, is *** in the file.
func TestOutputsNeverWriteSecrets(t *testing.T) {
	l, err := chain.Parse("c.yaml", []byte(`
name: c
inputs:
  - {name: token, secret: true}
  - {name: pin, secret: true}
  - {name: who}
steps:
  - {id: a, type: cli, command: echo, args: ["{input.who}"]}
`), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, file := outputsRenderer(t)
	g.MaskSecrets(l.Chain, map[string]string{"token": "s3cr3t-value\nsecond-line\n", "pin": "42", "who": "ann"})
	res := &record.Result{RunID: "r1", Status: record.Succeeded,
		Output: "token s3cr3t-value, then second-line; pin 42 stays inside text; ann"}
	g.Outputs(res, 0)
	g.Outputs(&record.Result{RunID: "r2", Status: record.Succeeded, Output: "42"}, 0)
	got, _ := os.ReadFile(file)
	for _, secret := range []string{"s3cr3t-value", "second-line", "output=42"} {
		if strings.Contains(string(got), secret) {
			t.Errorf("the file holds %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(string(got), "output=token ***, then ***; pin 42 stays inside text; ann\n") || !strings.Contains(string(got), "output=***\n") {
		t.Errorf("got %s", got)
	}
}

// TestOutputsUnwritable: a file that cannot be written is a warning of
// the result, nothing more; without $GITHUB_OUTPUT, or outside GitHub
// Actions, nothing is written.
func TestOutputsUnwritable(t *testing.T) {
	g := New(func(k string) string {
		return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(t.TempDir(), "no", "such", "dir")}[k]
	}, t.TempDir(), &bytes.Buffer{}, Options{})
	res := &record.Result{RunID: "r1", Status: record.Succeeded}
	g.Outputs(res, 0)
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "writing the step outputs ($GITHUB_OUTPUT): ") {
		t.Errorf("warnings %v", res.Warnings)
	}
	g = New(func(k string) string { return map[string]string{"GITHUB_ACTIONS": "true"}[k] }, t.TempDir(), &bytes.Buffer{}, Options{})
	g.Outputs(res, 0) // no file named: nothing, no warning
	var none *Renderer
	none.Outputs(res, 0)
	if len(res.Warnings) != 1 {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// A secret that is JSON has each string and number of four characters or
// more registered too (a step prints it, and its output is shown field by
// field), each line of one that spans lines; a shorter one is not, as
// masking every "42" of the job's log would hide the log.
func TestMaskSecretsOfJSON(t *testing.T) {
	l, err := chain.Parse("c.yaml", []byte("name: c\ninputs: [{name: key, secret: true}]\nsteps: [{id: a, type: cli, command: 'true'}]\n"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	g := New(func(k string) string { return map[string]string{"GITHUB_ACTIONS": "true"}[k] }, t.TempDir(), &log, Options{})
	g.MaskSecrets(l.Chain, map[string]string{"key": `{"id":"key-0001","pem":"BEGIN\nline-two-xyz\nEND","n":42,"list":["tok-abcd"]}`})
	for _, want := range []string{"::add-mask::key-0001\n", "::add-mask::line-two-xyz\n", "::add-mask::tok-abcd\n", "::add-mask::BEGIN\n"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("no %q in\n%s", want, log.String())
		}
	}
	if strings.Contains(log.String(), "::add-mask::42\n") {
		t.Errorf("a two-digit number masked everywhere:\n%s", log.String())
	}
}
