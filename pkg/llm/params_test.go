package llm_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

func ptr[T any](v T) *T { return &v }

// TestParamsAreSentAsEachAPINamesThem: every parameter reaches OpenAI's
// body under its name (the body still OpenAI's schema), extra is merged in
// last, and Anthropic gets top_p and stop_sequences and refuses what it
// does not take, naming it, without sending.
func TestParamsAreSentAsEachAPINamesThem(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	params := llm.Params{Seed: ptr(int64(7)), TopP: ptr(0.9), Stop: []string{"END"}, PresencePenalty: ptr(0.5), FrequencyPenalty: ptr(-0.5),
		ReasoningEffort: "low", Extra: map[string]any{"user": "ci", "top_p": 0.8}}
	req := hello(false)
	req.Params, req.PromptCacheKey = params, "deploy-review"
	if _, err := llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := s.Requests()[0].Body
	want := map[string]any{"seed": 7.0, "top_p": 0.8, "stop": []any{"END"}, "presence_penalty": 0.5, "frequency_penalty": -0.5,
		"reasoning_effort": "low", "user": "ci", "prompt_cache_key": "deploy-review"}
	for k, v := range want {
		if !reflect.DeepEqual(body[k], v) {
			t.Errorf("openai %s = %#v, want %#v", k, body[k], v)
		}
	}
	checkOpenAIBody(t, body)

	req.Params = llm.Params{TopP: ptr(0.9), Stop: []string{"END"}, Extra: map[string]any{"metadata": map[string]any{"user_id": "ci"}}}
	if _, err := llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body = s.Requests()[1].Body
	if body["top_p"] != 0.9 || !reflect.DeepEqual(body["stop_sequences"], []any{"END"}) || body["metadata"] == nil || body["stop"] != nil {
		t.Errorf("anthropic body %v", body)
	}
	req.Params = llm.Params{Seed: ptr(int64(1)), ReasoningEffort: "high"}
	_, err := llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "does not take [seed reasoning_effort]") || len(s.Requests()) != 2 {
		t.Errorf("anthropic with seed: %v (%d requests)", err, len(s.Requests()))
	}
	if got := (llm.Params{Seed: ptr(int64(1)), TopP: ptr(1.0)}).Unsupported(llm.KindAnthropic); !reflect.DeepEqual(got, []string{"seed"}) {
		t.Errorf("Unsupported = %v", got)
	}
}

// TestStructuredOutputAtTheProvider: a schema goes as OpenAI's
// response_format json_schema (strict when the schema allows it), JSON
// mode as json_object, and to Anthropic as one forced tool whose input is
// the answer.
func TestStructuredOutputAtTheProvider(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}},
		"required": []any{"ok"}, "additionalProperties": false}
	if !llm.StrictAllowed(schema) || llm.StrictAllowed(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{}}}) {
		t.Fatal("StrictAllowed")
	}
	s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
		if r.Path == "/v1/messages" {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "verdict", Arguments: `{"ok":true}`}}}
		}
		return llmtest.Reply{Text: `{"ok":true}`}
	})
	defer s.Close()
	req := hello(false)
	req.Format = &llm.ResponseFormat{Name: "verdict!", Schema: schema, Strict: true}
	resp, err := llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil).Complete(context.Background(), req)
	if err != nil || resp.Text != `{"ok":true}` {
		t.Fatal(resp, err)
	}
	rf, _ := s.Requests()[0].Body["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "verdict" || js["strict"] != true || !reflect.DeepEqual(js["schema"], schema) {
		t.Errorf("response_format %v", rf)
	}
	checkOpenAIBody(t, s.Requests()[0].Body)
	req.Format = &llm.ResponseFormat{}
	if _, err := llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if rf, _ := s.Requests()[1].Body["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("JSON mode: %v", rf)
	}
	checkOpenAIBody(t, s.Requests()[1].Body)

	req.Format = &llm.ResponseFormat{Name: "verdict", Schema: schema}
	resp, err = llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), req)
	if err != nil || resp.Text != `{"ok":true}` || len(resp.ToolCalls) != 0 || resp.FinishReason != llm.FinishStop {
		t.Fatalf("anthropic: %+v %v", resp, err)
	}
	body := s.Requests()[2].Body
	tools, _ := body["tools"].([]any)
	tc, _ := body["tool_choice"].(map[string]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "verdict" || tc["type"] != "tool" || tc["name"] != "verdict" {
		t.Errorf("anthropic tools %v choice %v", tools, tc)
	}
}

// TestAnthropicPromptCacheBreakpoints: with PromptCache, the system
// prompt, the last tool and the transcript's last block carry
// cache_control, three breakpoints; without it, none.
func TestAnthropicPromptCacheBreakpoints(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	req := llm.Request{Model: "m", System: "be brief", PromptCache: true,
		Tools: []llm.Tool{{Name: "a", Schema: map[string]any{}}, {Name: "b", Schema: map[string]any{}}},
		Messages: []llm.Message{{Role: llm.User, Content: "go"}, {Role: llm.Assistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "a", Arguments: "{}"}}},
			{Role: llm.User, ToolResults: []llm.ToolResult{{CallID: "c1", Content: "done"}}}}}
	if _, err := llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := s.Requests()[0].Body
	count := strings.Count(s.Requests()[0].Raw(), `"cache_control"`)
	sys, _ := body["system"].([]any)
	tools := body["tools"].([]any)
	msgs := body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["content"].([]any)
	if count != 3 || len(sys) != 1 || sys[0].(map[string]any)["cache_control"] == nil || tools[1].(map[string]any)["cache_control"] == nil ||
		tools[0].(map[string]any)["cache_control"] != nil || last[len(last)-1].(map[string]any)["cache_control"] == nil {
		t.Errorf("%d breakpoints: %v", count, s.Requests()[0].Raw())
	}
	req.PromptCache = false
	if _, err := llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.Requests()[1].Raw(), "cache_control") || s.Requests()[1].Body["system"] != "be brief" {
		t.Errorf("without caching: %s", s.Requests()[1].Raw())
	}
}
