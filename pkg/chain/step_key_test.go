package chain

import (
	"strings"
	"testing"
)

// dagKeyStep is a DAG chain of one step (its fields given) and an input.
func dagKeyStep(fields string) string {
	return "name: k\ninputs: [order]\nsteps:\n  - id: pay\n" + indent(fields, "    ")
}

// TestIdempotencyKeyWhereItBelongs: idempotencyKey is taken by every
// kind that sends it (http/rest, cli, script, mcp, webhook) and by noop,
// as mcp-flowgate's executors take it, in a workflow file and in a DAG
// chain alike; elsewhere it is refused naming the kinds it belongs to; a
// key is true, false or text; a text key reads {workflowId}, {transition},
// {correlationId} (a DAG step has no correlation id) and the run's values.
func TestIdempotencyKeyWhereItBelongs(t *testing.T) {
	cases := []struct {
		name, src, want string // want: "" loads, else what the errors hold
	}{
		{"cli executor", executorFile("", "kind: cli\ncommand: echo\nidempotencyKey: true\n"), ""},
		{"cli executor by connection", executorFile(rest, "kind: cli\nconnection: sh\nargs: [date]\nidempotencyKey: 'x-{transition}'\n"), ""},
		{"mcp executor", executorFile(rest, "kind: mcp\nconnection: gh\ntool: create_issue\nidempotencyKey: '{workflowId}:{correlationId}'\n"), ""},
		{"noop executor", executorFile("", "kind: noop\nidempotencyKey: true\n"), ""},
		{"script executor", executorFile(lib, "kind: script\nsubject: verify.green\nidempotencyKey: false\n"), ""},
		{"rest executor", executorFile(rest, "kind: rest\nconnection: api\npath: /x\nidempotencyKey: 'flowgate:{transition}:{workflowId}'\n"), ""},
		{"key reading the context", executorFile("", "kind: cli\ncommand: echo\nidempotencyKey: 'pay-{context.order}'\n"), ""},
		{"transform executor", executorFile("", "kind: transform\ntransform: '1'\nidempotencyKey: true\n"),
			`idempotencyKey does not belong to a transform step (it is a field of cli, http, noop, script, webhook, mcp steps)`},
		{"a number", executorFile("", "kind: cli\ncommand: echo\nidempotencyKey: 7\n"), `transition "go" executor: idempotencyKey is true or a key, not 7`},
		{"a list", executorFile("", "kind: noop\nidempotencyKey: [a]\n"), `idempotencyKey is true or a key, not [a]`},
		{"DAG cli step", dagKeyStep("type: cli\ncommand: echo\nidempotencyKey: true\n"), ""},
		{"DAG mcp step", rest + dagKeyStep("type: mcp\nconnection: gh\ntool: t\nidempotencyKey: 'o-{input.order}-{transition}-{workflowId}'\n"), ""},
		{"DAG step's correlation id", dagKeyStep("type: cli\ncommand: echo\nidempotencyKey: 'o-{correlationId}'\n"),
			`step "pay": idempotencyKey: {correlationId}: a step of a DAG chain is taken once per run, with no correlation id`},
		{"DAG step's unknown name", dagKeyStep("type: noop\nidempotencyKey: 'o-{ordr}'\n"), `step "pay": idempotencyKey: {ordr}: no input, step output_var`},
		{"DAG agent step", dagKeyStep("prompt: hi\nidempotencyKey: true\n"), `idempotencyKey does not belong to a agent step`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { expectLoad(t, tc.src, tc.want) })
	}
}

// TestIdempotencyKeyUnknownNameStaysAsWritten: in a workflow file, a
// key's {name} that is neither one of the key's names nor the run's
// value is sent as written, with a warning, as mcp-flowgate replaces
// only its three names; the file still loads.
func TestIdempotencyKeyUnknownNameStaysAsWritten(t *testing.T) {
	for _, key := range []string{"'{tenant}-{transition}'", "'a{b}c'", "'{workflowid}'", "'{input.who}'"} {
		l := mustParse(t, executorFile("", "kind: cli\ncommand: echo\nidempotencyKey: "+key+"\n"))
		var warned string
		for _, w := range l.Warnings {
			warned += w.Message + "\n"
		}
		name := strings.Trim(key, "'")
		name = name[strings.Index(name, "{"):]
		name = name[:strings.Index(name, "}")+1]
		if !strings.Contains(warned, "idempotencyKey: "+name+" is sent as written") {
			t.Errorf("%s: warnings %q", key, warned)
		}
		var exec *Step
		for _, s := range l.Chain.Steps {
			exec = s
		}
		if got := exec.C().IdempotencyKey.Refs(); len(got) != strings.Count(key, "{transition}") {
			t.Errorf("%s: references left %v", key, got)
		}
	}
}

// TestKeyTransition: what a key calls where a step runs.
func TestKeyTransition(t *testing.T) {
	src := `workflows:
  w:
    initialState: a
    states:
      a:
        onEnter: {executor: {kind: cli, command: date}}
        transitions:
          go:
            target: b
            actor: deterministic
            executor:
              kind: parallel
              branches: [{kind: cli, command: date}, {kind: pipeline, steps: [{kind: noop}]}]
      b: {terminal: true}
`
	l := mustParse(t, src)
	var got []string
	for _, s := range l.Chain.Steps {
		got = append(got, s.KeyTransition())
		for _, b := range s.Parallel().Branches {
			got = append(got, b.KeyTransition())
			for _, p := range b.Pipeline().Steps {
				got = append(got, p.KeyTransition())
			}
		}
	}
	if strings.Join(got, " ") != "on_enter go go go go" {
		t.Errorf("got %q", got)
	}
	dag := mustParse(t, dagKeyStep("type: cli\ncommand: date\n"))
	if k := dag.Chain.Steps[0].KeyTransition(); k != "pay" {
		t.Errorf("DAG step: %q", k)
	}
}

// TestIdempotencyKeySentNowhereIsAWarning: in a workflow file,
// idempotencyKey on a kind mcp-flowgate gives it to and does nothing
// with (parallel, pipeline, workflow, human) is taken with a warning
// that says so, not refused; on a DAG chain's step of such a kind it is
// still refused.
func TestIdempotencyKeySentNowhereIsAWarning(t *testing.T) {
	for _, exec := range []string{
		"kind: parallel\nidempotencyKey: true\nbranches: [{kind: noop}]\n",
		"kind: pipeline\nidempotencyKey: 'p-{transition}'\nsteps: [{kind: noop}]\n",
		"kind: human\nidempotencyKey: true\n",
	} {
		l := mustParse(t, executorFile("", exec))
		kind := strings.TrimPrefix(strings.SplitN(exec, "\n", 2)[0], "kind: ")
		found := false
		for _, w := range l.Warnings {
			found = found || strings.Contains(w.Message, `transition "go" executor: idempotencyKey is sent nowhere: a `+kind+` executor makes no request`)
		}
		if !found {
			t.Errorf("%s: warnings %v", kind, l.Warnings)
		}
	}
	expectLoad(t, dagKeyStep("type: parallel\nidempotencyKey: true\nbranches: [{type: noop}]\n"), `idempotencyKey does not belong to a parallel step`)
}

// TestPipelineStepsSendingOneKey: a pipeline whose steps would send the
// same key (true twice, or one text twice) loads with a warning naming
// them; different texts, or one key, load without it.
func TestPipelineStepsSendingOneKey(t *testing.T) {
	cases := []struct{ steps, want string }{
		{"[{kind: noop, idempotencyKey: true}, {kind: cli, command: date, idempotencyKey: true}]", "steps 1 and 2 send the same idempotencyKey"},
		{"[{kind: noop}, {kind: noop, idempotencyKey: k}, {kind: cli, command: date, idempotencyKey: k}]", "steps 2 and 3 send the same idempotencyKey"},
		{"[{kind: noop, idempotencyKey: a}, {kind: noop, idempotencyKey: b}, {kind: noop, idempotencyKey: false}, {kind: noop, idempotencyKey: false}]", ""},
	}
	for _, tc := range cases {
		l := mustParse(t, executorFile("", "kind: pipeline\nsteps: "+tc.steps+"\n"))
		var got string
		for _, w := range l.Warnings {
			if strings.Contains(w.Message, "idempotencyKey") {
				got += w.Message
			}
		}
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.steps, got, tc.want)
		}
	}
}
