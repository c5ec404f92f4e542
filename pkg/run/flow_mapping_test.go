package run

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestTransitionOutputMappings holds mcp-flowgate's output mappings: keys
// copied from $.output (json, text, exitCode, stderr), $.context,
// $.workflow.input and $.input, literals, and the operators, with a
// missing value counting as 0; treatNonZeroAsFailure: false makes an exit
// status a value. Only the mapped keys reach the context.
func TestTransitionOutputMappings(t *testing.T) {
	src := wf(`    inputSchema:
      type: object
      properties: {service: {type: string}}
    states:
      a:
        transitions:
          check:
            target: b
            actor: deterministic
            executor:
              kind: cli
              run: 'echo "{\"passed\": false, \"count\": 7}"; echo oops >&2; exit 3'
              treatNonZeroAsFailure: false
            output:
              passedA: "$.output.json.passed"
              countA: "$.output.json.count"
              code: "$.output.exitCode"
              err: "$.output.stderr"
              svc: "$.workflow.input.service"
              svc2: "$.input.service"
              fixed: 5
              doubled: {multiply: ["$.output.json.count", 2]}
              fromNothing: {add: ["$.context.never", 1]}
      b:
        transitions:
          more:
            target: done
            actor: deterministic
            executor: {kind: cli, command: echo, args: ["hello"]}
            output:
              text: "$.output.text"
              sum: {add: ["$.context.countA", 3]}
              diff: {subtract: ["$.context.countA", "$.context.fixed"]}
              half: {divide: ["$.context.countA", 2]}
              tag: {concat: ["v-", "$.context.countA"]}
              list: {concat: [[1], "$.context.fixed"]}
              same: {set: "$.context.svc"}
      done: {terminal: true}
`)
	res := runChain(t, src, map[string]string{"service": "api"})
	want := map[string]any{
		"passedA": false, "countA": 7, "code": 3, "err": "oops", "svc": "api", "svc2": "api", "fixed": 5,
		"doubled": 14, "fromNothing": 1, "text": "hello", "sum": 10, "diff": 2, "half": 3.5, "tag": "v-7",
		"list": []any{1, 5}, "same": "api",
	}
	if res.Status != record.Succeeded || asJSON(t, res.Context) != asJSON(t, want) {
		t.Fatalf("%s (%s)\n got %#v\nwant %#v", res.Status, res.Error, res.Context, want)
	}
}

// TestTransitionOutputMappingFailures holds that a mapping that cannot be
// computed fails the transition, naming the key, and that a nonzero exit
// stays a failure unless treatNonZeroAsFailure is false.
func TestTransitionOutputMappingFailures(t *testing.T) {
	tests := []struct{ name, transition, want string }{
		{"divide by zero", `executor: {kind: cli, command: echo, args: ["1"]}
            output: {r: {divide: [1, "$.context.zero"]}}`, "transition go: output r: divide: $.context.zero is zero"},
		{"not a number", `executor: {kind: cli, command: echo, args: ["abc"]}
            output: {r: {add: ["$.output.text", 1]}}`, `transition go: output r: add: $.output.text is abc, not a number`},
		{"nonzero exit", `executor: {kind: cli, run: 'exit 4'}
            output: {code: "$.output.exitCode"}`, "transition go failed"},
	}
	for _, tt := range tests {
		res := runChain(t, wf(`    states:
      a:
        transitions:
          go:
            target: done
            actor: deterministic
            `+tt.transition+`
      done: {terminal: true}
`), nil)
		if res.Status != record.Failed || !strings.Contains(res.Error, tt.want) {
			t.Errorf("%s: %s %q, want %q", tt.name, res.Status, res.Error, tt.want)
		}
	}
}

// TestAgentDecisionArguments holds that a model deciding a transition with
// an inputSchema gives its arguments in the tool call: offered in the
// tool's schema, checked (a bad one is sent back), read as $.arguments.
func TestAgentDecisionArguments(t *testing.T) {
	s := llmtest.New(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "rate", "arguments": {"score": 42}}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "choose_transition", Arguments: `{"transition": "rate", "arguments": {"score": 4}}`}}},
	)
	defer s.Close()
	src := wf(`    states:
      a:
        transitions:
          rate:
            target: done
            actor: agent
            inputSchema:
              type: object
              required: [score]
              properties: {score: {type: integer, maximum: 5}}
            output: {score: "$.arguments.score"}
      done: {terminal: true}
`)
	res, err := New(WithDir(t.TempDir()), WithModels(registryFor(s, nil))).Run(context.Background(),
		Request{Chain: load(t, src), AgentModel: "openai/m1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != record.Succeeded || asJSON(t, res.Context) != `{"score":4}` {
		t.Fatalf("%s %v %s", res.Status, res.Context, res.Error)
	}
	reqs := s.Requests()
	if first := asJSON(t, reqs[0].Body); !strings.Contains(first, `"arguments":{"description"`) || !strings.Contains(first, "Arguments of rate (JSON Schema)") {
		t.Errorf("the first request offers no arguments: %s", first)
	}
	if !strings.Contains(asJSON(t, reqs[1].Body), "do not satisfy the transition's inputSchema") {
		t.Error("the second request does not say what was wrong")
	}
}
