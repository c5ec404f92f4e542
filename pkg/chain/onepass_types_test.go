package chain

import "testing"

// TestOnePassTypeErrorsAndCyclesHideNothing: a value of the wrong type,
// a dependency cycle or a kind's own error is reported beside every other
// error of the file — references, depends_on naming no step, the output
// naming no output_var — each at its place, so a file is fixed in one
// pass; and a field whose value could not be read is not reported a
// second time as missing.
func TestOnePassTypeErrorsAndCyclesHideNothing(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"type error beside a reference and a lost dependency",
			"name: c\nsteps:\n  - {id: a, type: cli, command: echo, timeout_ms: 3m, args: ['{missing}']}\n  - {id: b, type: cli, command: echo, depends_on: [zz]}\n",
			[]string{`c.yaml:3:51: step "a": timeout_ms: ` + "`3m`" + ` is text here; a whole number is expected`,
				`c.yaml:3:55: step "a": args: {missing}: no input`, `step "b": depends_on names "zz", which is not a step`}, nil},
		{"cycle beside references",
			"name: c\nsteps:\n  - {id: x, type: cli, command: echo, args: ['{ghost}'], depends_on: [y], output_var: xo}\n  - {id: y, type: cli, command: echo, args: ['{input.nope}'], depends_on: [x]}\noutput: yo\n",
			[]string{"dependency cycle: x → y → x", `step "x": args: {ghost}: no input`, `step "y": args: {input.nope}: no input is named nope`,
				`c.yaml:5:9: output "yo" names no step's output_var (did you mean xo?)`}, nil},
		{"the newcomer's whole file",
			"name: bad\ninputs:\n  - {name: env, default: staging}\nsteps:\n  - id: lint\n    type: cli\n    comand: golangci-lint\n  - id: test\n    type: cli\n    command: go\n    depend_on: [lint]\n    timeout_ms: 5s\n    retry: three\n  - id: build\n    type: cli\n    depends_on: [deploy]\n    run: echo building {input.enviroment} {tset_out}\n    output_var: build_out\n  - id: deploy\n    type: cli\n    depends_on: [build]\n    run: echo deploying {build_out}\n    output_var: deploy_out\n  - id: notify\n    type: htpp\n    url: http://127.0.0.1/hook\noutput: deploy_output\n",
			[]string{`unknown field "comand"`, `unknown field "depend_on"`, `step "test": timeout_ms: ` + "`5s`", `step "test": retry: ` + "`three`",
				`unknown type "htpp"`, "dependency cycle: build → deploy → build", "c.yaml:17:5: step \"build\": run: {input.enviroment}: no input is named enviroment",
				"named tset_out", `output "deploy_output" names no step's output_var (did you mean deploy_out?)`}, nil},
		{"a kind's own error hides no reference",
			"name: c\nsteps:\n  - {id: a, type: http, method: FETCH, url: 'http://h/{nope}'}\n",
			[]string{"FETCH", "{nope}"}, nil},
		{"a value of the wrong type is not also missing",
			"name: c\nsteps:\n  - {id: a, type: cli, command: {program: echo}, args: ['{zip}']}\n",
			[]string{`step "a": command: a mapping is given here; text is expected`, "{zip}"}, []string{"needs command", "command is required"}},
		{"a wrong name type is not also missing",
			"name: [c]\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{zip}']}\n",
			[]string{"c.yaml:1:7: name: a list is given here; text is expected", "{zip}"}, []string{"name is required"}},
		{"a workflow's shape error hides no reference",
			wfHead + "      a:\n        task: {kind: cli, command: echo, args: ['{nothere}'], timeout_ms: later}\n        transition: {branches: [{operator: default, goto: nowhere}]}\n      b: {terminal: true}\n",
			[]string{`goto "nowhere" is not a state`, `{nothere}: no input, context`, "timeout_ms: `later` is text here"}, nil},
		{"an input's, the budget's and a retry's value of the wrong type",
			"name: c\ninputs:\n  - {name: who, optional: maybe}\nbudget: {max_tokens: lots}\nsteps:\n  - {id: a, type: cli, command: echo, args: ['{nope}'], retry: {max: x}}\n",
			[]string{"c.yaml:3:27: input: optional: `maybe` is text here", "c.yaml:4:22: budget: max_tokens: `lots` is text here",
				`step "a": args: {nope}: no input`, "c.yaml:6:70: step \"a\": retry: max: `x` is text here"},
			[]string{"retry.max is the number of attempts"}},
		{"a workflow's depth, a timeout and a branch of the wrong type",
			"version: '1'\nworkflows:\n  w:\n    initialState: a\n    maxChainDepth: lots\n    states:\n      a:\n        timeout: soon\n        on_timeout: go\n        goal: '{input.nope}'\n        transitions:\n          go: {target: b, actor: human}\n      b:\n        task: {kind: cli, command: echo, args: ['{zz}']}\n        transition: {branches: [{operator: default, goto: end, when: [1]}]}\n",
			[]string{"maxChainDepth: `lots` is text here", `timeout "soon": write a duration`, `goal: {input.nope}: no input is named nope`,
				`args: {zz}: no input, context`, `state "b": transition: branch: when: a list is given here`},
			[]string{"maxChainDepth must be 1 or more", "on_timeout needs a timeout", "branches is empty"}},
		{"a repeated or missing id hides no reference",
			"name: c\nsteps:\n  - {id: a, type: cli, command: echo, output_var: o}\n  - {id: a, type: cli, command: echo, args: ['{nope}']}\n  - {type: cli, command: echo, args: ['{o}', '{zip}']}\noutput: oo\n",
			[]string{`c.yaml:4:6: step id "a" is already used`, `c.yaml:4:39: step "a": args: {nope}: no input`, "c.yaml:5:5: step: id is required",
				"the step at line 5: args: {zip}: no input", `output "oo" names no step's output_var (did you mean o?)`},
			[]string{"{o}:"}},
		{"a guard's error hides no reference",
			wfHead + "      a:\n        transitions:\n          go:\n            target: b\n            actor: deterministic\n            guards: [{kind: permision, permission: x}, {kind: all_of, guards: [{kind: expr, expr: '$.context.x =='}]}, {kind: role}]\n            executor: {kind: cli, command: echo, args: ['{zz}']}\n      b: {terminal: true}\n",
			[]string{`guards[1]: unknown guard kind "permision" (did you mean permission?)`, `guards[2].guards[1]: expr "$.context.x ==" does not parse`,
				`guards[3]: a role guard needs role`, `args: {zz}: no input, context`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFindings(t, c.src, c.want, c.not) })
	}
}
