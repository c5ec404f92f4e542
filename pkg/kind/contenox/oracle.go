package contenox

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	cx "github.com/chainrun/chainrun/pkg/format/contenox"
	"github.com/chainrun/chainrun/pkg/run"
)

// oracleRecord is what the oracle hook keeps in the context as "oracle":
// the ask under review (the run's input) and the verdict on it, which
// whoever ran the chain delivers.
type oracleRecord struct {
	AskID    string `json:"askId"`
	Kind     string `json:"kind"`
	Outcome  string `json:"outcome"`
	Answer   string `json:"answer,omitempty"`
	Guidance string `json:"guidance,omitempty"`
}

// The kinds of ask the oracle rules on.
const (
	askPermission = "permission"
	askAttention  = "attention"
)

// oracle runs a tool of the oracle hook on the ask that is the run's
// input.
func oracle(a *run.Attempt, tool string, args map[string]any) (any, error) {
	input := a.Input(cx.InputVar)
	var ask struct {
		AskID string `json:"askId"`
		Kind  string `json:"kind"`
	}
	if json.Unmarshal([]byte(input), &ask) != nil || ask.AskID == "" {
		return nil, errors.New(`oracle: the run's input is not an ask: give it as JSON with askId and kind (permission or attention), as in --input input='{"askId": "a1", "kind": "permission", "intent": "…", "toolName": "…"}'`)
	}
	if ask.Kind != askAttention {
		ask.Kind = askPermission
	}
	r := oracleRecord{AskID: ask.AskID, Kind: ask.Kind}
	hookState(a, cx.HookOracle, &r)
	switch tool {
	case cx.ToolVerdictState:
		if r.Outcome != "" {
			return map[string]any{"state": "settled", "text": ""}, nil
		}
		return map[string]any{"state": "open", "text": "output rejected: give the verdict with submit_verdict; a chat answer is not a verdict.\n\nINPUT:\n" + input}, nil
	case cx.ToolSubmitVerdict:
		res := r.submit(args)
		setHookState(a, cx.HookOracle, r)
		return res, nil
	}
	return nil, fmt.Errorf("the oracle hook has no tool %q", tool)
}

// submit records a verdict, or says what to correct: {accepted, outcome,
// message}.
func (r *oracleRecord) submit(args map[string]any) map[string]any {
	text := func(k string) string {
		s, _ := args[k].(string)
		return strings.TrimSpace(s)
	}
	result := func(accepted bool, msg string, a ...any) map[string]any {
		return map[string]any{"accepted": accepted, "outcome": r.Outcome, "message": fmt.Sprintf(msg, a...)}
	}
	takes := "approve, deny (with guidance) or wait"
	if r.Kind == askAttention {
		takes = "answer (with answer: one short sentence) or wait"
	}
	verdict := strings.ToLower(text("verdict"))
	switch {
	case r.Outcome != "":
		return result(false, "the verdict on ask %s is already recorded: do not call submit_verdict again", r.AskID)
	case text("askId") != r.AskID:
		return result(false, "askId %q is not the ask under review: give the askId of the input, %q, and submit again", text("askId"), r.AskID)
	case verdict == "wait":
		r.Outcome = "wait"
		return result(true, "recorded WAIT for ask %s: nothing runs, a person decides; do not call submit_verdict again", r.AskID)
	case r.Kind == askAttention && verdict != "answer", r.Kind == askPermission && verdict != "approve" && verdict != "deny":
		return result(false, "verdict %q does not fit a %s ask, which takes %s: submit again", verdict, r.Kind, takes)
	case verdict == "answer" && text("answer") == "":
		return result(false, "verdict answer needs an answer: one short sentence the asker can act on; submit again")
	case verdict == "answer":
		r.Outcome, r.Answer = "answered", text("answer")
	case verdict == "approve":
		r.Outcome = "approved"
	default:
		r.Outcome, r.Guidance = "denied", text("guidance")
	}
	return result(true, "recorded %s for ask %s: do not call submit_verdict again", strings.ToUpper(r.Outcome), r.AskID)
}
