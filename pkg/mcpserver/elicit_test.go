package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// signoff is a human decision with required arguments, run on its own
// and inside another workflow (a workflow executor), one level and two
// levels down.
const signoff = `version: "1"
workflows:
  signoff:
    initialState: desk
    states:
      desk:
        goal: Sign the change off
        transitions:
          sign:
            target: signed
            actor: human
            inputSchema:
              type: object
              required: [risk, owner]
              properties:
                risk: {type: integer, minimum: 1, maximum: 5}
                owner: {type: string, enum: [ops, dev]}
            output: {risk: "$.arguments.risk", owner: "$.arguments.owner"}
          drop: {target: dropped, actor: human}
      signed: {terminal: true}
      dropped: {terminal: true}
  wrapper:
    initialState: start
    states:
      start:
        transitions:
          delegate:
            target: finish
            actor: deterministic
            executor: {kind: workflow, definitionId: signoff}
            output: {risk: "$.output.risk"}
      finish: {terminal: true}
  outermost:
    initialState: a
    states:
      a:
        transitions:
          go:
            target: z
            actor: deterministic
            executor: {kind: workflow, definitionId: wrapper}
            output: {risk: "$.output.risk"}
      z: {terminal: true}
`

// elicitServer serves the signoff chains to a client on protocol (nil:
// the newest, with multi round-trip requests) whose person answers each
// form with the next of answers; asked collects the forms.
func elicitServer(t *testing.T, protocol []string, answers ...map[string]any) (*memBackend, *mcp.ClientSession, *[]*mcp.ElicitParams) {
	t.Helper()
	dir := chainsDir(t)
	if err := os.WriteFile(filepath.Join(dir, "signoff.yaml"), []byte(signoff), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newMemBackend(dir)
	var mu sync.Mutex
	var asked []*mcp.ElicitParams
	_, cs := serve(t, b, Options{ProtocolVersions: protocol}, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, req.Params)
		if len(asked) > len(answers) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		return &mcp.ElicitResult{Action: "accept", Content: answers[len(asked)-1]}, nil
	}})
	return b, cs, &asked
}

// TestElicitationInsideAWorkflowAsksItsArguments holds that the form of a
// human decision inside a workflow that a workflow executor runs (one or
// two levels down) holds that decision's argument fields, and that the
// answers reach the transition, on both protocols.
func TestElicitationInsideAWorkflowAsksItsArguments(t *testing.T) {
	for _, chainName := range []string{"signoff", "wrapper", "outermost"} {
		for _, protocol := range [][]string{nil, {"2025-06-18"}} {
			t.Run(chainName+" "+strings.Join(protocol, ""), func(t *testing.T) {
				b, cs, asked := elicitServer(t, protocol, map[string]any{"transition": "sign", "risk": 2, "owner": "ops"})
				r, isErr := call(t, cs, toolStart, map[string]any{"chain": chainName})
				if isErr || r.Status != "succeeded" {
					t.Fatalf("%v %+v", isErr, r)
				}
				if len(*asked) != 1 {
					t.Fatalf("asked %d times", len(*asked))
				}
				if chainName != "signoff" && !strings.Contains((*asked)[0].Message, "(in workflow signoff, at desk)") {
					t.Errorf("the question does not say where the decision is: %q", (*asked)[0].Message)
				}
				form := mustJSON((*asked)[0].RequestedSchema)
				for _, want := range []string{`"risk":{"maximum":5,"minimum":1,"type":"integer"}`, `"owner":{"enum":["ops","dev"],"type":"string"}`} {
					if !strings.Contains(form, want) {
						t.Errorf("form %s lacks %s", form, want)
					}
				}
				if got := b.run(r.RunID).args; len(got) != 1 || got[0]["owner"] != "ops" {
					t.Errorf("the take's arguments = %v", got)
				}
			})
		}
	}
}

// TestAnAnswerOutsideTheFormIsAToolResult holds that an answer the form
// refuses (a number over its maximum, text for an integer, a choice
// outside its enum) never ends the call with a protocol error: the
// answer is a tool result with isError, the run's id, the error and the
// links, the run still paused. On a protocol without multi round-trip
// requests the form is asked again first, with the problem said; on one
// with them, the client sends the answer with the call (a client that
// does not check it against the form, as the SDK's own does).
func TestAnAnswerOutsideTheFormIsAToolResult(t *testing.T) {
	for name, bad := range map[string]map[string]any{
		"over the maximum": {"transition": "sign", "risk": 9, "owner": "ops"},
		"text for integer": {"transition": "sign", "risk": "high", "owner": "ops"},
		"outside the enum": {"transition": "sign", "risk": 3, "owner": "qa"},
	} {
		t.Run(name+" asked by the server", func(t *testing.T) {
			_, cs, asked := elicitServer(t, []string{"2025-06-18"}, bad, bad, bad, bad)
			r, isErr := call(t, cs, toolStart, map[string]any{"chain": "wrapper"})
			if !isErr || r.RunID == "" || r.Status != "paused" || !strings.Contains(r.Error, "does not fit the form") || len(r.Links) == 0 {
				t.Fatalf("isError %v: %+v", isErr, r)
			}
			if len(*asked) != maxRefusals || !strings.Contains((*asked)[1].Message, "not taken") {
				t.Errorf("asked %d times (want %d), the second time: %q", len(*asked), maxRefusals, (*asked)[1].Message)
			}
			// the run is there to go on with, by its links
			if got, _ := call(t, cs, toolGet, map[string]any{"run_id": r.RunID}); got.Status != "paused" {
				t.Errorf("get_run: %+v", got)
			}
		})
		t.Run(name+" answered with the call", func(t *testing.T) {
			_, cs, _ := elicitServer(t, nil)
			paused, _ := call(t, cs, toolGet, map[string]any{"run_id": startPaused(t, cs)})
			state := mustJSON(asked{RunID: paused.RunID, Version: paused.Version})
			r, isErr := callWith(t, context.Background(), cs, &mcp.CallToolParams{Name: toolGet, Arguments: map[string]any{"run_id": paused.RunID},
				RequestState: state, InputResponses: mcp.InputResponseMap{decisionKey: &mcp.ElicitResult{Action: "accept", Content: bad}}})
			if !isErr || r.RunID != paused.RunID || r.Status != "paused" || !strings.Contains(r.Error, "does not fit the form") || len(r.Links) != 2 {
				t.Fatalf("isError %v: %+v", isErr, r)
			}
		})
	}
}

// startPaused starts wrapper on a client whose person declines: the run
// pauses at the decision inside it. It returns the run's id.
func startPaused(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	r, _ := call(t, cs, toolStart, map[string]any{"chain": "wrapper"})
	if r.Status != "paused" || r.RunID == "" {
		t.Fatalf("start: %+v", r)
	}
	return r.RunID
}

// TestAFormAnsweredAgainAfterARefusalGoesOn holds that, asked again, a
// good answer takes the transition.
func TestAFormAnsweredAgainAfterARefusalGoesOn(t *testing.T) {
	b, cs, asked := elicitServer(t, []string{"2025-06-18"}, map[string]any{"transition": "sign", "risk": 0, "owner": "dev"},
		map[string]any{"transition": "sign", "risk": 4, "owner": "dev"})
	r, isErr := call(t, cs, toolStart, map[string]any{"chain": "outermost"})
	if isErr || r.Status != "succeeded" || len(*asked) != 2 {
		t.Fatalf("isError %v, asked %d: %+v", isErr, len(*asked), r)
	}
	if got := b.run(r.RunID).args; len(got) != 1 || got[0]["owner"] != "dev" {
		t.Errorf("the take's arguments = %v", got)
	}
}

// TestPlaceholdersReadAsWrittenInTheText holds that the text block a
// model reads shows a link's placeholders as written, not escaped.
func TestPlaceholdersReadAsWrittenInTheText(t *testing.T) {
	_, cs, _ := elicitServer(t, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolStart, Arguments: map[string]any{"chain": "signoff"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"owner":"<ops|dev>"`) || !strings.Contains(text, `"risk":"<integer>"`) || strings.Contains(text, `\u003c`) {
		t.Errorf("the text: %s", text)
	}
}
