package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/telemetry/jaegertest"
)

// TestTracesInJaeger exports runs to a real Jaeger (CHAINRUN_JAEGER; .ci
// builds it) and reads them back over its query API: a DAG run with a
// retried command that prints its TRACEPARENT and a model step with a
// tool loop, then a workflow run that pauses at a decision and its resume,
// which links back to it.
func TestTracesInJaeger(t *testing.T) {
	j := jaegertest.Start(t) // skips, naming CHAINRUN_JAEGER, when it is not built
	withCompanion(t)
	var calls atomic.Int32
	model := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if calls.Add(1) == 1 {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: `{"file_path":"notes.txt"}`}}}
		}
		return llmtest.Reply{Text: "the notes say hello"}
	})
	defer model.Close()
	dir := t.TempDir()
	t.Chdir(dir)
	for _, kv := range append(j.HTTPEnv(), "OTEL_SERVICE_NAME=chainrun-jaeger-test", "CHAINRUN_STATE_DIR="+filepath.Join(dir, "state"),
		"OPENAI_API_KEY=ok-test", "OPENAI_BASE_URL="+model.OpenAIURL(), "TRACEPARENT=") {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	os.WriteFile("notes.txt", []byte("hello\n"), 0o644)
	os.WriteFile("traced.yaml", []byte(`name: traced
steps:
  - id: build
    type: cli
    command: sh
    args: ["-c", "echo $TRACEPARENT >> tp.txt; test -e again || { touch again; exit 3; }"]
    retry: {max: 2, delay_ms: 1}
  - id: ask
    depends_on: [build]
    model: openai/gpt-5-mini
    prompt: What do the notes say?
    tools: [Read]
`), 0o644)
	os.WriteFile("decide.yaml", []byte(`version: "1"
workflows:
  decide:
    initialState: review
    states:
      review:
        goal: Ship or hold
        transitions:
          ship: {target: shipped, actor: human}
          hold: {target: held, actor: human}
      shipped: {terminal: true}
      held: {terminal: true}
`), 0o644)
	if code, out, errOut := chainrunIn(t, "run", "traced.yaml", "-q"); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	traces, err := j.WaitForSpans(ctx, "chainrun-jaeger-test", 7)
	if err != nil {
		t.Fatal(err)
	}
	tr := traces[0]
	t.Logf("the DAG run's trace:\n%s", tr)
	root := tr.Find("run traced")
	if root == nil || root.ParentSpanID != "" || root.Attributes["chainrun.exit_code"] != int64(0) || root.Attributes["chainrun.run.status"] != "succeeded" {
		t.Fatalf("the run's span: %+v", root)
	}
	builds := tr.FindAll("step build")
	printed, _ := os.ReadFile("tp.txt")
	lines := strings.Fields(string(printed))
	if len(builds) != 2 || len(lines) != 2 {
		t.Fatalf("%d build spans, the command printed %q", len(builds), printed)
	}
	for i, b := range builds {
		if b.ParentSpanID != root.SpanID || b.Attributes["chainrun.step.retry"] != int64(i) {
			t.Errorf("attempt %d: parent %s, attributes %v", i+1, b.ParentSpanID, b.Attributes)
		}
		if want := "00-" + root.TraceID + "-" + b.SpanID + "-01"; !strings.Contains(string(printed), want) {
			t.Errorf("attempt %d's span %s is not the TRACEPARENT its command printed (%q)", i+1, b.SpanID, printed)
		}
	}
	if builds[0].Status.Code != jaegertest.StatusError || builds[1].Status.Code == jaegertest.StatusError {
		t.Errorf("the failed attempt and the retry: %v, %v", builds[0].Status, builds[1].Status)
	}
	ask := tr.Find("step ask")
	if ask == nil || ask.ParentSpanID != root.SpanID {
		t.Fatalf("the model step: %+v", ask)
	}
	chats := tr.FindAll("chat gpt-5-mini")
	tool := tr.Find("execute_tool Read")
	if len(chats) != 2 || tool == nil {
		t.Fatalf("%d chat spans, tool %v", len(chats), tool)
	}
	for _, c := range chats {
		if c.ParentSpanID != ask.SpanID || c.Kind != jaegertest.KindClient || c.Attributes["gen_ai.operation.name"] != "chat" ||
			c.Attributes["gen_ai.provider.name"] != "openai" || c.Attributes["gen_ai.request.model"] != "gpt-5-mini" ||
			c.Attributes["gen_ai.response.model"] != "gpt-5-mini" || c.Attributes["gen_ai.usage.input_tokens"] == nil {
			t.Errorf("chat span %s: %v", c.SpanID, c.Attributes)
		}
	}
	if reasons, _ := chats[0].Attributes["gen_ai.response.finish_reasons"].([]any); len(reasons) != 1 || reasons[0] != "tool_call" {
		t.Errorf("the first answer's finish reasons: %v", chats[0].Attributes["gen_ai.response.finish_reasons"])
	}
	if tool.ParentSpanID != ask.SpanID || tool.Attributes["gen_ai.tool.name"] != "Read" || tool.Attributes["gen_ai.operation.name"] != "execute_tool" || tool.Status.Code == jaegertest.StatusError {
		t.Errorf("the tool span: %+v", tool)
	}

	// a workflow that pauses for a person, then is resumed with a choice
	if code, out, errOut := chainrunIn(t, "run", "decide.yaml", "-q"); code != 3 {
		t.Fatalf("run decide: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := chainrunIn(t, "resume", "last", "--take", "hold", "-q"); code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errOut)
	}
	traces, err = j.WaitForSpans(ctx, "chainrun-jaeger-test", 7+5)
	if err != nil {
		t.Fatal(err)
	}
	var paused, resumed *jaegertest.Span
	for _, tr := range traces {
		for _, s := range tr.Spans {
			if !strings.HasPrefix(s.Name, "run ") || !strings.Contains(s.Name, "decide") {
				continue
			}
			if s.Attributes["chainrun.run.status"] == "paused" {
				paused = &s
			} else {
				resumed = &s
				t.Logf("the resume's trace:\n%s", tr)
				if tk := tr.Find("transition hold"); tk == nil || tk.ParentSpanID != s.SpanID || tk.Attributes["chainrun.workflow.state"] != "review" || tk.Attributes["chainrun.workflow.target"] != "held" {
					t.Errorf("the transition's span: %+v", tk)
				}
				if d := tr.Find("decision review"); d == nil || d.Attributes["chainrun.workflow.decided_by"] == nil {
					t.Errorf("the decision's span: %+v", d)
				}
			}
		}
	}
	if paused == nil || resumed == nil {
		t.Fatalf("the workflow's two attempts: %v %v", paused, resumed)
	}
	if paused.Attributes["chainrun.exit_code"] != int64(3) || len(resumed.Links) != 1 || resumed.Links[0].SpanID != paused.SpanID || resumed.Links[0].TraceID != paused.TraceID {
		t.Errorf("the resume links the attempt it continues: paused %v, links %+v", paused.Attributes, resumed.Links)
	}

	// the same over OTLP/gRPC
	for _, kv := range append(j.GRPCEnv(), "OTEL_SERVICE_NAME=chainrun-jaeger-grpc") {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	os.WriteFile("one.yaml", []byte("name: one\nsteps:\n  - {id: a, type: cli, command: \"true\"}\n"), 0o644)
	if code, out, errOut := chainrunIn(t, "run", "one.yaml", "-q"); code != 0 || errOut != "" {
		t.Fatalf("run over gRPC: exit %d\n%s\n%s", code, out, errOut)
	}
	if traces, err := j.WaitForSpans(ctx, "chainrun-jaeger-grpc", 2); err != nil || traces[0].Find("run one") == nil || traces[0].Find("step a") == nil {
		t.Fatalf("over gRPC: %v %v", traces, err)
	}
}
