package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// TestGuidanceShowsSecretsMasked: a secret input read by a state's goal
// or guidance — whole, inside another value, through {{ $.… }} or
// {input.x}/{context.x} — is filled in as ***, in the result, the saved
// transitions and the decision a decider is given; the other values are
// filled in as they are.
func TestGuidanceShowsSecretsMasked(t *testing.T) {
	cases := []struct{ name, goal, guidance, want string }{
		{"placeholders", `"key {{ $.workflow.input.apikey }} for {{ $.input.user }}"`, `"prefixed {{ $.context.hdr }}"`, "key *** for ann|prefixed Bearer ***"},
		{"references", `"key {input.apikey} for {input.user}"`, `"prefixed {context.hdr}"`, "key *** for ann|prefixed Bearer ***"},
		{"a short secret whole", `"pin {{ $.workflow.input.pin }}"`, `"pin again {input.pin}"`, "pin ***|pin again ***"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := wf(`    inputSchema:
      type: object
      properties:
        apikey: {type: string, writeOnly: true}
        pin: {type: string, writeOnly: true}
        user: {type: string}
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            output: {hdr: {concat: ["Bearer ", "$.input.apikey"]}}
      b:
        goal: ` + c.goal + `
        guidance: ` + c.guidance + `
        transitions:
          fin: {target: done, actor: human}
      done: {terminal: true}
`)
			j := &memJournal{}
			in := map[string]string{"apikey": "k3y-Zebra-991", "pin": "42", "user": "ann"}
			res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: in, Journal: j})
			if err != nil || res.Status != record.Paused {
				t.Fatalf("%v %s %s", err, res.Status, res.Error)
			}
			g := res.WorkflowResult.Guidance
			if g == nil || g.Goal+"|"+g.Instructions != c.want {
				t.Fatalf("guidance %+v, want %q", g, c.want)
			}
			for what, v := range map[string]any{"result": res, "journal": j.transitions} {
				if s := asJSON(t, v); strings.Contains(s, "k3y-Zebra-991") || strings.Contains(s, `pin 42`) {
					t.Errorf("%s shows a secret: %s", what, s)
				}
			}
		})
	}
}

// TestGuidanceShowsAMaskedSlotAsMasked: after a resume, a context slot
// or variable that held a secret (saved as ***, dropped on replay) shows
// as *** in guidance, not as unset; a slot nothing set still shows unset.
func TestGuidanceShowsAMaskedSlotAsMasked(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      properties:
        token: {type: string, writeOnly: true}
    states:
      a:
        transitions:
          go:
            target: b
            actor: deterministic
            executor: {kind: transform, expr: '{"echoed": input.token}', output_var: seen}
            output: {echoed: "$.output.json.echoed"}
      b:
        goal: "echoed {{ $.context.echoed }} / {context.echoed} / {seen.echoed} / never {{ $.context.never }}"
        transitions:
          fin: {target: c, actor: human}
      c:
        goal: "still {{ $.context.echoed }}"
        transitions:
          fin: {target: done, actor: human}
      done: {terminal: true}
`)
	c := load(t, src)
	j := &memJournal{}
	in := map[string]string{"token": "T0ken-Value-77"}
	res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: in, Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
	want := "echoed *** / *** / *** / never (never: unset)"
	if g := res.WorkflowResult.Guidance; g == nil || g.Goal != want {
		t.Fatalf("first call: %+v, want %q", g, want)
	}
	res, err = New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: c, Inputs: in, History: j.transitions, Take: "fin", Journal: j})
	if err != nil || res.Status != record.Paused {
		t.Fatalf("%v %s %s", err, res.Status, res.Error)
	}
	if g := res.WorkflowResult.Guidance; g == nil || g.Goal != "still ***" {
		t.Fatalf("after a resume: %+v", g)
	}
}

// TestGateQuestionShowsSecretsMasked: a DAG gate's question that reads a
// secret input is the pause's goal with the secret as ***, and so is what
// a person at the terminal is asked.
func TestGateQuestionShowsSecretsMasked(t *testing.T) {
	src := `name: g
inputs: [{name: key, secret: true}]
steps:
  - {id: ok, type: gate, prompt: "Deploy with {input.key}?"}
`
	var asked string
	human := func(_ context.Context, d response.Decision) (response.Choice, bool, error) {
		asked = d.Goal
		return response.Choice{}, false, nil
	}
	for _, h := range []response.Decider{nil, human} {
		res, err := New(WithDir(t.TempDir())).Run(context.Background(), Request{Chain: load(t, src), Inputs: map[string]string{"key": "Gate-Secret-4242"}, Human: h})
		if err != nil || res.Status != record.Paused {
			t.Fatalf("%v %s %s", err, res.Status, res.Error)
		}
		if g := res.WorkflowResult.Guidance; g == nil || g.Goal != "Deploy with ***?" || strings.Contains(asJSON(t, res), "Gate-Secret-4242") {
			t.Fatalf("%+v", res.WorkflowResult.Guidance)
		}
	}
	if asked != "Deploy with ***?" {
		t.Errorf("the person was asked %q", asked)
	}
}
