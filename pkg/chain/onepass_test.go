package chain

import (
	"strings"
	"testing"
)

// TestOnePassReportsEveryError: an unknown field or a depends_on naming no
// step does not hide the file's other errors, so a file is fixed in one
// pass; and a misspelt field is not reported a second time as missing.
func TestOnePassReportsEveryError(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"unknown fields and expressions",
			"name: c\nsteps:\n  - id: a\n    type: cli\n    comand: echo\n    frob: 1\n  - id: b\n    type: transform\n    expr: foo\n    depends_on: [zz]\n",
			[]string{`c.yaml:5:5: step "a": unknown field "comand" (did you mean command?)`, `c.yaml:6:5: step "a": unknown field "frob"`,
				`c.yaml:10:5: step "b": depends_on names "zz", which is not a step`, `c.yaml:9:5: step "b": expr "foo": no input`},
			[]string{"needs command", "did you mean a?", "does not belong"}},
		{"misspelt top-level key", "name: c\nstep:\n  - {id: a, type: cli, command: echo}\n",
			[]string{`c.yaml:2:1: unknown field "step" (did you mean steps?)`}, []string{"at least one step"}},
		{"unknown field and a bad reference", "name: c\ninputs: [who]\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{input.woh}'], colour: red}\n",
			[]string{`unknown field "colour"`, "no input is named woh (did you mean who?)"}, nil},
		{"a misspelt dependency hides no reference", "name: c\nsteps:\n  - {id: build, type: cli, command: x, output_var: out}\n  - {id: b, type: cli, command: echo, args: ['{out}', '{nope}'], depends_on: [biuld]}\n",
			[]string{`depends_on names "biuld", which is not a step (did you mean build?)`, "named nope"}, []string{"does not depend on"}},
		{"inputs written as a mapping", "name: c\ninputs:\n  region: {default: eu}\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{input.region}', '{nope}'], timeout: 5}\n  - {id: b, type: transform, expr: 'a +', depends_on: [zz]}\n",
			[]string{`c.yaml:3:3: inputs must be a list of {name, description, optional, default, secret, enum}, as in inputs: [{name: region}]`, `unknown field "timeout"`,
				"named nope", `expr "a +" does not parse`, `depends_on names "zz"`}, []string{"no input is named"}},
		{"inputs that are a number", "name: c\ninputs: 3\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{input.x}'], output_var: 9x}\n",
			[]string{`c.yaml:2:9: inputs must be a list`, `output_var "9x"`}, []string{"no input is named"}},
		{"an input entry that is a list", "name: c\ninputs:\n  - [who]\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{input.who}'], condition: '((('}\n",
			[]string{`c.yaml:3:5: an input must be a mapping with a name`, `condition "(((" does not parse`}, []string{"no input is named"}},
		{"slots that are not a mapping", wfHead + "      a:\n        slots: 5\n        transitions:\n          go: {target: nowhere, actor: human, condition: 'x >'}\n",
			[]string{`c.yaml:7:16: state "a": slots: slots map each slot's name`, `target "nowhere" is not a state`, `condition "x >" does not parse`}, nil},
		{"branches of the wrong shape", wfHead + "      a:\n        transitions:\n          go: {target: b, actor: human, reliability: {timeout: 5s}}\n      b:\n        task: {kind: noop}\n        transition: [x]\n      c:\n        task: {kind: noop}\n        transition: {on_failure: gone}\n",
			[]string{`transition holds branches`, `branches are required`, `on_failure "gone"`}, []string{"branches is empty"}},
		{"a key given twice", "name: c\nsteps:\n  - id: a\n    type: cli\n    run: echo\n    run: echo again\n    depends_on: [ghost]\n",
			[]string{`c.yaml:6:5: step "a": run is given twice (first at line 5)`, `depends_on names "ghost"`}, nil},
		{"workflow fields", wfHead + "      a:\n        goals: x\n        transitions:\n          go: {target: b, actr: agent}\n          two: {target: nowhere, actor: agent}\n      b: {terminal: true}\n",
			[]string{`state "a": unknown field "goals" (did you mean goal?)`, `state "a": transition "go": unknown field "actr" (did you mean actor?)`, `target "nowhere" is not a state`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFindings(t, c.src, c.want, c.not) })
	}
}

// wantFindings parses src, which must be invalid, and checks that its
// errors hold every text of want and none of not.
func wantFindings(t *testing.T, src string, want, not []string) {
	t.Helper()
	_, err := Parse("c.yaml", []byte(src), Options{})
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in\n%v", w, err)
		}
	}
	for _, n := range not {
		if strings.Contains(err.Error(), n) {
			t.Errorf("%q should not be reported:\n%v", n, err)
		}
	}
}

// TestYAMLSyntaxErrorsAreExplained: the parser's words for a tab, a key
// indented too far or an unquoted ": " come with what they mean, at the
// place they point to.
func TestYAMLSyntaxErrorsAreExplained(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"tab", "name: t\nsteps:\n\t- id: a\n", "c.yaml:3:1: a tab indents this line: YAML indents with spaces only"},
		{"tab after spaces", "name: t\nsteps:\n  - id: a\n    type: cli\n    command: echo\n  \t  args: [x]\n", "c.yaml:6:3: a tab indents this line"},
		{"indented too far", "name: t\nsteps:\n  - id: a\n    type: cli\n     command: echo\n", "c.yaml:5:13: this line is indented further than the key above it"},
		{"a second colon", "name: t\nsteps:\n  - id: a\n    run: echo a: b\n", `c.yaml:4:16: a second ": " on this line: a value that holds ": " must be quoted`},
		{"list item out of line", "name: t\nsteps:\n  - id: a\n  - id: b\n   - id: c\n", `c.yaml:5:4: this line is indented differently from the list items above it`},
		{"reserved character", "name: t\nsteps:\n  - id: a\n    command: @foo\n", "c.yaml:4:14: a value cannot begin with '@' unquoted"},
		{"unclosed quote", "name: t\nsteps:\n  - id: a\n    command: \"echo\n", "a quote is not closed"},
		{"unclosed bracket", "name: t\nsteps:\n  - id: a\n    args: [x\n", "is not closed"},
		{"the parser's words stay", "name: t\nsteps:\n\t- id: a\n", "(YAML: found character that cannot start any token)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(c.src), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q", err, c.want)
			}
		})
	}
}
