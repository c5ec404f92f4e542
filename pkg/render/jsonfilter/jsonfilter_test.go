package jsonfilter

import (
	"errors"
	"strings"
	"testing"
)

const result = `{
  "run_id": "20261124-101500-000-abc123",
  "name": "deploy",
  "status": "failed",
  "output": null,
  "vars": {"tests": {"coverage": 87.3, "count": 142}, "notes": "line 1\nline 2"},
  "steps": [
    {"id": "lint", "status": "succeeded", "attempts": 1, "duration_ms": 6},
    {"id": "build", "status": "failed", "attempts": 3, "duration_ms": 1234, "error": "exited with code 2"}
  ],
  "duration_ms": 9,
  "started_at": "2026-11-24T10:15:00.5Z",
  "big": 123456789012345678901234567890
}
`

func TestJQ(t *testing.T) {
	for _, tc := range []struct{ name, expr, want string }{
		{"a string prints raw", ".run_id", "20261124-101500-000-abc123\n"},
		{"a multi-line string prints raw", ".vars.notes", "line 1\nline 2\n"},
		{"null", ".output", "null\n"},
		{"a whole number as jq shows it", ".duration_ms", "9\n"},
		{"a fraction", ".vars.tests.coverage", "87.3\n"},
		{"a number too big for int keeps its digits", ".big", "123456789012345678901234567890\n"},
		{"a boolean", ".steps[0].attempts == 1", "true\n"},
		{"several results, one a line", ".steps[].id", "lint\nbuild\n"},
		{"an object is one line", ".vars.tests", `{"count":142,"coverage":87.3}` + "\n"},
		{"string interpolation", `.steps[] | select(.status == "failed") | "\(.id): \(.error)"`, "build: exited with code 2\n"},
		{"no result prints nothing", ".steps[] | select(.attempts > 5)", ""},
		{"empty", "empty", ""},
		{"halt stops quietly", `.name, halt, .status`, "deploy\n"},
		{"arithmetic on whole numbers", "[.steps[].duration_ms] | add", "1240\n"},
	} {
		t.Run(tc.name, func(t *testing.T) { expect(t, Options{JQ: tc.expr}, result, tc.want) })
	}
}

// expect filters data with o and checks what is printed.
func expect(t *testing.T, o Options, data, want string) {
	t.Helper()
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := f.Apply(t.Context(), &out, []byte(data)); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestJQPretty(t *testing.T) {
	expect(t, Options{JQ: ".vars.tests, .name", Pretty: true}, result, "{\n  \"count\": 142,\n  \"coverage\": 87.3\n}\ndeploy\n")
}

func TestJQEnviron(t *testing.T) {
	for _, tc := range []struct {
		environ func() []string
		want    string
	}{
		{func() []string { return []string{"STAGE=prod"} }, "prod\n"},
		{nil, "null\n"}, // the environment is not read unless given
	} {
		expect(t, Options{JQ: "env.STAGE", Environ: tc.environ}, `{}`, tc.want)
	}
}

func TestTemplate(t *testing.T) {
	for _, tc := range []struct{ name, tmpl, want string }{
		{"fields", `{{.name}} {{.status}}`, "deploy failed"},
		{"a whole number compares with a literal", `{{range .steps}}{{if eq .attempts 3}}{{.id}}{{end}}{{end}}`, "build"},
		{"json", `{{json .vars.tests}}`, `{"count":142,"coverage":87.3}`},
		{"join and pluck", `{{join ", " (pluck "id" .steps)}}`, "lint, build"},
		{"truncate", `{{truncate 8 .run_id}}|{{truncate 40 .name}}`, "2026112…|deploy"},
		{"timefmt", `{{timefmt "15:04:05" .started_at}}`, "10:15:00"},
		{"duration", `{{range .steps}}{{duration .duration_ms}} {{end}}`, "6ms 1.2s "},
		{"contains", `{{if contains .name "dep"}}yes{{end}}`, "yes"},
		{"a table, aligned, printed at the end", `{{range .steps}}{{tablerow .id .status .attempts}}{{end}}done` + "\n",
			"done\nlint   succeeded  1\nbuild  failed     3\n"},
		{"a table rendered in place", `{{tablerow "ID" "STATUS"}}{{range .steps}}{{tablerow .id .status}}{{end}}{{tablerender}}--` + "\n",
			"ID     STATUS\nlint   succeeded\nbuild  failed\n--\n"},
	} {
		t.Run(tc.name, func(t *testing.T) { expect(t, Options{Template: tc.tmpl}, result, tc.want) })
	}
}

func TestNoFilter(t *testing.T) {
	if f, err := New(Options{}); f != nil || err != nil {
		t.Errorf("New of no filter = %v, %v; want nil, nil", f, err)
	}
}

// TestCompileErrors: a filter that cannot be used is a usage error naming
// its flag, before anything runs.
func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"jq syntax", Options{JQ: ".steps[] |"}, `--jq: ".steps[] |": unexpected EOF`},
		{"jq unknown function", Options{JQ: "nosuch(1)"}, `--jq: "nosuch(1)": function not defined: nosuch/1`},
		{"template syntax", Options{Template: "{{.name"}, `--template: template: --template:1: unclosed action`},
		{"template unknown function", Options{Template: "{{nosuch .name}}"}, `--template: template: --template:1: function "nosuch" not defined`},
		{"both", Options{JQ: ".", Template: "x"}, "--jq: cannot be used with --template: choose one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.o)
			var fe *FlagError
			if !errors.As(err, &fe) || !fe.NothingRan() {
				t.Fatalf("got %v, want a FlagError", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %q, want it to begin %q", err, tc.want)
			}
		})
	}
}

// TestApplyErrors: a filter that fails on the JSON says so, naming its
// flag; what it printed before stays printed.
func TestApplyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		o          Options
		want, out  string
	}{
		{"jq on the wrong type", result, Options{JQ: ".name, .name.x"}, "--jq: expected an object but got: string (\"deploy\")", "deploy\n"},
		{"jq error()", result, Options{JQ: `error("no")`}, "--jq: error: no", ""},
		{"template on the wrong type", result, Options{Template: `{{duration .name}}`}, "--template: template: --template:1:2: executing \"--template\" at <duration .name>: error calling duration: duration: deploy is not a number of milliseconds", ""},
		{"not JSON", "progress line\n", Options{JQ: "."}, "--jq: the command's output is not JSON", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New(tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			err = f.Apply(t.Context(), &out, []byte(tc.data))
			var ae *ApplyError
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want an ApplyError", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %q, want it to begin %q", err, tc.want)
			}
			if out.String() != tc.out {
				t.Errorf("printed %q, want %q", out.String(), tc.out)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		n    int
		v    any
		want string
	}{
		{5, "hello", "hello"},
		{4, "hello", "hel…"},
		{1, "hello", "…"},
		{0, "hello", "hello"},
		{3, "héllo", "hé…"},
		{3, nil, ""},
		{4, 123456, "123…"},
	} {
		if got := truncate(tc.n, tc.v); got != tc.want {
			t.Errorf("truncate(%d, %v) = %q, want %q", tc.n, tc.v, got, tc.want)
		}
	}
}

// TestHeld: what a command writes is held until Flush prints it filtered.
func TestHeld(t *testing.T) {
	f, err := New(Options{JQ: ".status"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	h := f.Hold(&out)
	if _, err := h.Write([]byte(`{"status": "paused"}`)); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || h.Out() != &out {
		t.Fatalf("printed %q before Flush", out.String())
	}
	if err := h.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "paused\n" {
		t.Errorf("got %q", out.String())
	}
}
