package run

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// FuzzResultRoundTrip: any result — DAG or workflow, with any text in its
// fields — encodes to JSON that decodes to the same result (what
// result.json, runs show and --output json rely on).
func FuzzResultRoundTrip(f *testing.F) {
	f.Add("r1", "succeeded", "out", "k", `{"a": [1, 2.5, "x"]}`, "err", "state", "t", int64(12), true)
	f.Add("", "", "", "", "", "", "", "", int64(0), false)
	f.Add("\x00\xff", "paused", "\u2028", "é", "null", "\n", "s", "\"", int64(-1), true)
	f.Fuzz(func(t *testing.T, id, status, output, key, data, errText, state, transition string, n int64, workflow bool) {
		var v any = output
		var decoded any
		if json.Unmarshal([]byte(data), &decoded) == nil {
			v = decoded
		}
		res := &record.Result{RunID: id, Name: id, Status: record.Status(status), Output: v, Vars: map[string]any{key: v},
			Steps: []record.StepResult{{ID: key, Status: record.StepStatus(status), Attempts: int(n % 100), DurationMS: n, Error: errText,
				Usage: &record.Usage{LLMCalls: int(n % 7), InputTokens: int(n % 1000)}, ToolCalls: int(n % 5)}},
			Error: errText, DurationMS: n}
		if workflow {
			res.WorkflowResult = &response.WorkflowResult{State: state, Chain: []response.ChainEntry{{FromState: state, Transition: transition, ToState: state, Result: output}},
				Context: map[string]any{key: v}, Guidance: &response.Guidance{Goal: errText}, Links: []response.Link{{Transition: transition, Title: output}}}
		}
		first, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var back record.Result
		if err := json.Unmarshal(first, &back); err != nil {
			t.Fatalf("%s does not decode: %v", first, err)
		}
		second, err := json.Marshal(&back)
		if err != nil {
			t.Fatal(err)
		}
		// compared as JSON values: invalid UTF-8 is written \ufffd once,
		// then as the character itself
		var a, b any
		if json.Unmarshal(first, &a) != nil || json.Unmarshal(second, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip changed the result:\n%s\n%s", first, second)
		}
	})
}
