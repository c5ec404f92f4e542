package llm_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// The Messages API's request body (POST /v1/messages), field by field,
// as its reference gives it (platform.claude.com/docs/en/api/messages,
// "Create a Message", the non-beta parameters): each field's type and the
// values it takes. A field the reference does not list, a value of
// another type or outside its range, fails the body.
type shape func(path string, v any) []string

func object(required []string, fields map[string]shape) shape {
	return func(path string, v any) []string {
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an object, got %T", path, v)}
		}
		var out []string
		for _, r := range required {
			if _, ok := m[r]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: required", path, r))
			}
		}
		for k, sub := range m {
			check, known := fields[k]
			if !known {
				out = append(out, fmt.Sprintf("%s.%s: not a field of the Messages API", path, k))
				continue
			}
			out = append(out, check(path+"."+k, sub)...)
		}
		return out
	}
}

func str(values ...string) shape {
	return func(path string, v any) []string {
		s, ok := v.(string)
		if !ok {
			return []string{fmt.Sprintf("%s: want a string, got %T", path, v)}
		}
		if len(values) > 0 && !slices.Contains(values, s) {
			return []string{fmt.Sprintf("%s: %q is not one of %v", path, s, values)}
		}
		return nil
	}
}

func number(lo, hi float64, integer bool) shape {
	return func(path string, v any) []string {
		f, ok := v.(float64)
		if !ok || f < lo || f > hi || integer && f != float64(int64(f)) {
			return []string{fmt.Sprintf("%s: %v is not a number in [%g, %g] (integer: %v)", path, v, lo, hi, integer)}
		}
		return nil
	}
}

func boolean(path string, v any) []string {
	if _, ok := v.(bool); !ok {
		return []string{fmt.Sprintf("%s: want a boolean, got %T", path, v)}
	}
	return nil
}

func anyJSON(string, any) []string { return nil }

func list(item shape, most int) shape {
	return func(path string, v any) []string {
		l, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an array, got %T", path, v)}
		}
		var out []string
		if most > 0 && len(l) > most {
			out = append(out, fmt.Sprintf("%s: %d items, the API takes at most %d", path, len(l), most))
		}
		for i, x := range l {
			out = append(out, item(fmt.Sprintf("%s[%d]", path, i), x)...)
		}
		return out
	}
}

// oneOf picks the shape by the value's type member, or by its Go type.
func oneOf(byType map[string]shape, text shape) shape {
	return func(path string, v any) []string {
		if s, ok := v.(string); ok && text != nil {
			return text(path, s)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: want an object, got %T", path, v)}
		}
		t, _ := m["type"].(string)
		check, ok := byType[t]
		if !ok {
			return []string{fmt.Sprintf("%s.type: %q is not a type the API takes here", path, t)}
		}
		return check(path, v)
	}
}

func messagesAPIRequest() shape {
	cacheControl := object([]string{"type"}, map[string]shape{"type": str("ephemeral"), "ttl": str("5m", "1h")})
	textBlock := object([]string{"type", "text"}, map[string]shape{"type": str("text"), "text": str(), "cache_control": cacheControl, "citations": anyJSON})
	toolUse := object([]string{"type", "id", "name", "input"}, map[string]shape{"type": str("tool_use"), "id": str(), "name": str(), "input": object(nil, nil).orAny(), "cache_control": cacheControl})
	toolResult := object([]string{"type", "tool_use_id"}, map[string]shape{"type": str("tool_result"), "tool_use_id": str(), "is_error": boolean,
		"content": str().orList(textBlock), "cache_control": cacheControl})
	block := oneOf(map[string]shape{"text": textBlock, "tool_use": toolUse, "tool_result": toolResult}, nil)
	message := object([]string{"role", "content"}, map[string]shape{"role": str("user", "assistant"), "content": oneOf(nil, str()).orList(block)})
	tool := object([]string{"name", "input_schema"}, map[string]shape{"name": str(), "description": str(), "cache_control": cacheControl,
		"input_schema": object([]string{"type"}, nil).orAny()})
	toolChoice := object([]string{"type"}, map[string]shape{"type": str("auto", "any", "tool", "none"), "name": str(), "disable_parallel_tool_use": boolean})
	return object([]string{"model", "messages", "max_tokens"}, map[string]shape{
		"model": str(), "messages": list(message, 0), "max_tokens": number(1, 1<<31, true),
		"system": oneOf(nil, str()).orList(textBlock), "metadata": object(nil, map[string]shape{"user_id": str()}),
		"stop_sequences": list(str(), 0), "stream": boolean, "temperature": number(0, 1, false), "top_p": number(0, 1, false),
		"top_k": number(0, 1<<31, true), "tools": list(tool, 0), "tool_choice": toolChoice, "thinking": anyJSON,
		"service_tier": str("auto", "standard_only"), "container": str(), "mcp_servers": anyJSON,
		"output_config": object(nil, map[string]shape{"effort": str("low", "medium", "high", "max"),
			"format": object([]string{"type", "schema"}, map[string]shape{"type": str("json_schema"), "schema": object([]string{"type"}, nil).orAny()})}),
	})
}

// orAny accepts any object for a free-form member (a tool's input, a
// JSON Schema) while still requiring an object.
func (s shape) orAny() shape {
	return func(path string, v any) []string {
		if _, ok := v.(map[string]any); !ok {
			return []string{fmt.Sprintf("%s: want an object, got %T", path, v)}
		}
		return nil
	}
}

// orList is s for a string, a list of item otherwise.
func (s shape) orList(item shape) shape {
	return func(path string, v any) []string {
		if _, ok := v.(string); ok {
			return s(path, v)
		}
		return list(item, 0)(path, v)
	}
}

// TestAnthropicBodiesHoldToTheMessagesAPI: every body the anthropic
// provider sends — params, stop sequences, a forced answer tool for a
// JSON Schema, tools and a transcript with tool calls and results (an
// error among them), prompt-cache breakpoints, a temperature — holds to
// the Messages API's reference field by field, with at most the API's four
// cache_control breakpoints.
func TestAnthropicBodiesHoldToTheMessagesAPI(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	topP, temp := 0.9, 0.3
	transcript := []llm.Message{{Role: llm.User, Content: "go"},
		{Role: llm.Assistant, Content: "looking", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read", Arguments: `{"path":"a"}`}, {ID: "c2", Name: "grep", Arguments: "{}"}}},
		{Role: llm.User, ToolResults: []llm.ToolResult{{CallID: "c1", Content: "text"}, {CallID: "c2", Content: "no such file", IsError: true}}}}
	tools := []llm.Tool{{Name: "read", Description: "read a file", Schema: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}},
		{Name: "grep", Schema: map[string]any{"type": "object"}}}
	schema := map[string]any{"type": "object", "properties": map[string]any{"verdict": map[string]any{"type": "string"}}, "required": []any{"verdict"}, "additionalProperties": false}
	for name, req := range map[string]llm.Request{
		"plain":         {Messages: []llm.Message{{Role: llm.User, Content: "hi"}}},
		"params":        {System: "be brief", Temperature: &temp, MaxTokens: 300, Messages: []llm.Message{{Role: llm.User, Content: "hi"}}, Params: llm.Params{TopP: &topP, Stop: []string{"END", "STOP"}, Extra: map[string]any{"top_k": 5, "metadata": map[string]any{"user_id": "ci"}}}},
		"schema":        {Messages: []llm.Message{{Role: llm.User, Content: "judge"}}, Format: &llm.ResponseFormat{Name: "verdict", Schema: schema, Strict: true}},
		"tool loop":     {System: "use tools", Tools: tools, Messages: transcript},
		"required":      {Tools: tools, ToolChoice: llm.ToolChoiceRequired, Messages: transcript},
		"named":         {Tools: tools, ToolChoice: "read", Messages: transcript},
		"cached":        {System: "stable prefix", Tools: tools, PromptCache: true, Messages: transcript},
		"streamed":      {Messages: []llm.Message{{Role: llm.User, Content: "hi"}}, OnDelta: func(string) {}},
		"native":        {Model: "claude-sonnet-4-5", Messages: []llm.Message{{Role: llm.User, Content: "judge"}}, Format: &llm.ResponseFormat{Name: "verdict", Schema: schema, Strict: true}},
		"native, tools": {Model: "claude-opus-4-6", Tools: tools, Messages: transcript, Format: &llm.ResponseFormat{Name: "verdict", Schema: schema, Strict: true}},
	} {
		if req.Model == "" {
			req.Model = "claude-x"
		}
		if _, err := llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), req); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reqs := s.Requests()
		got := reqs[len(reqs)-1]
		if got.Path != "/v1/messages" {
			t.Errorf("%s: sent to %s", name, got.Path)
		}
		for _, problem := range messagesAPIRequest()("body", got.Body) {
			t.Errorf("%s: %s", name, problem)
		}
		_, native := got.Body["output_config"]
		if forced := strings.Contains(got.Raw(), `"name":"verdict"`); strings.HasPrefix(name, "native") != native || native && forced {
			t.Errorf("%s: output_config %v, the answer tool %v: %s", name, native, forced, got.Raw())
		}
		if n := strings.Count(got.Raw(), `"cache_control"`); n > 4 {
			t.Errorf("%s: %d cache_control breakpoints, the API takes 4", name, n)
		}
	}
}

// TestMessagesAPIReferenceRefuses: the reference above is no fake that
// always passes: a misnamed field, a temperature out of the API's range,
// a fifth stop... each is found.
func TestMessagesAPIReferenceRefuses(t *testing.T) {
	for want, body := range map[string]map[string]any{
		"body.max_tokens: required":                    {"model": "m", "messages": []any{}},
		"body.stop: not a field":                       {"model": "m", "messages": []any{}, "max_tokens": 1.0, "stop": []any{"x"}},
		"body.temperature: 1.5 is not a number":        {"model": "m", "messages": []any{}, "max_tokens": 1.0, "temperature": 1.5},
		`body.messages[0].role: "system" is not one`:   {"model": "m", "max_tokens": 1.0, "messages": []any{map[string]any{"role": "system", "content": "x"}}},
		`body.tool_choice.type: "required" is not one`: {"model": "m", "max_tokens": 1.0, "messages": []any{}, "tool_choice": map[string]any{"type": "required"}},
	} {
		problems := strings.Join(messagesAPIRequest()("body", body), "\n")
		if !strings.Contains(problems, want) {
			t.Errorf("want %q in:\n%s", want, problems)
		}
	}
}
