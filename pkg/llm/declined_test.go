package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// declined checks that err is a model declining with reason, not
// transient, its message holding each of want and none of hidden.
func declined(t *testing.T, err error, reason string, want, hidden []string) {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("want a declined *llm.Error, got %T %v", err, err)
	}
	if e.Declined != reason || llm.DeclinedReason(err) != reason || e.Transient {
		t.Errorf("declined %q transient %v, want %q and permanent: %v", e.Declined, e.Transient, reason, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q: %v", w, err)
		}
	}
	for _, h := range hidden {
		if strings.Contains(err.Error(), h) {
			t.Errorf("the error quotes %q: %v", h, err)
		}
	}
}

// TestConformanceRefusal: a refusal, whole or streamed, in either wire
// format, is a failure naming what the model said, never an empty answer.
func TestConformanceRefusal(t *testing.T) {
	replies := []struct {
		name  string
		reply llmtest.Reply
		want  []string
	}{
		{"bare", llmtest.Reply{Refusal: "I can't assist with building that device."}, []string{"refused to answer", "I can't assist with building that device."}},
		{"after some text", llmtest.Reply{Text: "Let me think. ", Refusal: "Policy forbids this topic."}, []string{"refused to answer", "Policy forbids this topic."}},
		{"unicode", llmtest.Reply{Refusal: "Désolé — je ne peux pas aider avec ça ✋"}, []string{"Désolé — je ne peux pas aider avec ça ✋"}},
	}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		for _, r := range replies {
			s := llmtest.New(r.reply)
			resp, err := mk(s).Complete(context.Background(), request(stream, &strings.Builder{}))
			s.Close()
			declined(t, err, llm.FinishRefusal, r.want, nil)
			if resp == nil || resp.Usage.InputTokens == 0 || resp.FinishReason != llm.FinishRefusal {
				t.Errorf("%s: the refusal's usage is lost: %+v", r.name, resp)
			}
		}
	})
}

// TestConformanceContentFilter: an OpenAI answer stopped by the content
// filter is a failure, not a stop, and does not quote what was held back.
func TestConformanceContentFilter(t *testing.T) {
	for _, text := range []string{"Partial answer th", "", "Ünïcode partial ✂"} {
		for _, stream := range []bool{false, true} {
			s := llmtest.New(llmtest.Reply{Text: text, Finish: "content_filter"})
			_, err := llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil).Complete(context.Background(), request(stream, &strings.Builder{}))
			s.Close()
			var hidden []string
			if text != "" {
				hidden = []string{text}
			}
			declined(t, err, llm.FinishContentFilter, []string{"content filter", "content_filter"}, hidden)
		}
	}
}

// TestAnthropicSDKRefusalFixture replays the official SDK's refusal
// stream, and the same refusal as one JSON body.
func TestAnthropicSDKRefusalFixture(t *testing.T) {
	fixture, err := os.ReadFile("testdata/anthropic-sdk-python/refusal_response.txt")
	if err != nil {
		t.Fatal(err)
	}
	// the file ends without the empty line that ends its last event, which
	// a server sends
	s, _ := rawServer(t, 200, "text/event-stream", string(fixture)+"\n")
	_, err = llm.NewAnthropic("anthropic", s.URL, "k", nil).Complete(context.Background(), hello(true))
	declined(t, err, llm.FinishRefusal, []string{"This request was refused due to policy.", "cyber"}, nil)

	body := `{"id":"msg_9","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":"refusal","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":0}}`
	j, _ := rawServer(t, 200, "application/json", body)
	_, err = llm.NewAnthropic("anthropic", j.URL, "k", nil).Complete(context.Background(), hello(false))
	declined(t, err, llm.FinishRefusal, []string{"gave no reason"}, nil)
}

// TestEveryOpenAIFinishReasonIsRead: each finish_reason of the official
// schema, whole and streamed, has its own outcome; a reason added to the
// schema fails here until it is given one.
func TestEveryOpenAIFinishReasonIsRead(t *testing.T) {
	data, err := os.ReadFile("testdata/openai/openai_chat_schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]func(*llm.Response, error) bool{
		"stop":   func(r *llm.Response, err error) bool { return err == nil && r.FinishReason == llm.FinishStop },
		"length": func(r *llm.Response, err error) bool { return err == nil && r.FinishReason == llm.FinishLength },
		"tool_calls": func(r *llm.Response, err error) bool {
			return err == nil && r.FinishReason == llm.FinishToolCall && len(r.ToolCalls) == 1
		},
		"function_call": func(r *llm.Response, err error) bool {
			return err == nil && r.FinishReason == llm.FinishToolCall && len(r.ToolCalls) == 1
		},
		"content_filter": func(_ *llm.Response, err error) bool { return llm.DeclinedReason(err) == llm.FinishContentFilter },
	}
	for schema, stream := range map[string]bool{"CreateChatCompletionResponse": false, "CreateChatCompletionStreamResponse": true} {
		var s struct {
			Properties struct {
				Choices struct {
					Items struct {
						Properties struct {
							FinishReason struct {
								Enum []string `json:"enum"`
							} `json:"finish_reason"`
						} `json:"properties"`
					} `json:"items"`
				} `json:"choices"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(doc.Components.Schemas[schema], &s); err != nil {
			t.Fatal(err)
		}
		reasons := s.Properties.Choices.Items.Properties.FinishReason.Enum
		if len(reasons) < 4 {
			t.Fatalf("%s: finish reasons not found: %v", schema, reasons)
		}
		for _, reason := range reasons {
			check, ok := want[reason]
			if !ok {
				t.Errorf("%s: finish_reason %q has no outcome", schema, reason)
				continue
			}
			reply := llmtest.Reply{Text: "some text", Finish: reason}
			if strings.Contains(reason, "call") {
				reply.ToolCalls = []llmtest.ToolCall{{Name: "lookup", Arguments: `{"q":"x"}`}}
			}
			srv := llmtest.New(reply)
			req := request(stream, &strings.Builder{})
			req.Tools = []llm.Tool{{Name: "lookup"}}
			resp, err := llm.NewOpenAI("openai", srv.OpenAIURL(), "k", nil).Complete(context.Background(), req)
			srv.Close()
			if !check(resp, err) {
				t.Errorf("%s: finish_reason %q read as %+v, %v", schema, reason, resp, err)
			}
		}
	}
}

// TestADeclinedAnswerGoesToTheFallbackOnce: a refusal is not asked again
// of the model that refused, and the next model is asked.
func TestADeclinedAnswerGoesToTheFallbackOnce(t *testing.T) {
	for _, reply := range []llmtest.Reply{{Refusal: "No."}, {Text: "cut", Finish: "content_filter"}} {
		primary := llmtest.New(reply)
		backup := llmtest.New(llmtest.Reply{Text: "here you are"})
		targets := []llm.Target{
			{Provider: llm.NewOpenAI("openai", primary.OpenAIURL(), "k", nil), Model: "a"},
			{Provider: llm.NewAnthropic("anthropic", backup.AnthropicURL(), "k", nil), Model: "b"},
		}
		resp, target, sent, err := llm.Call(context.Background(), targets, request(false, nil), llm.Policy{Attempts: 3}, nil)
		if err != nil || resp.Text != "here you are" || target.Label() != "anthropic/b" || primary.Count() != 1 || sent != 2 {
			t.Errorf("%+v: %v %+v %s primary=%d sent=%d", reply, err, resp, target.Label(), primary.Count(), sent)
		}
		primary.Close()
		backup.Close()
	}
	alone := llmtest.New(llmtest.Reply{Refusal: "Not this."})
	defer alone.Close()
	_, _, sent, err := llm.Call(context.Background(), []llm.Target{{Provider: llm.NewOpenAI("openai", alone.OpenAIURL(), "k", nil), Model: "a"}}, request(false, nil), llm.Policy{Attempts: 3}, nil)
	declined(t, err, llm.FinishRefusal, []string{"Not this."}, nil)
	if sent != 1 {
		t.Errorf("a refusal was asked again: %d requests", sent)
	}
}

// TestEveryAnthropicStopReasonIsRead: each stop_reason has its own
// outcome, whole and streamed; one that is not known is kept as it is,
// never taken for a complete answer (so never cached).
func TestEveryAnthropicStopReasonIsRead(t *testing.T) {
	want := map[string]string{
		"end_turn": llm.FinishStop, "stop_sequence": llm.FinishStop,
		"max_tokens": llm.FinishLength, "model_context_window_exceeded": llm.FinishLength,
		"pause_turn": "pause_turn", "a_reason_from_later": "a_reason_from_later",
	}
	for reason, finish := range want {
		for _, stream := range []bool{false, true} {
			s := llmtest.New(llmtest.Reply{Text: "some text", Finish: reason})
			resp, err := llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil).Complete(context.Background(), request(stream, &strings.Builder{}))
			s.Close()
			if err != nil || resp.FinishReason != finish {
				t.Errorf("%s (stream %v): %+v %v, want %s", reason, stream, resp, err, finish)
			}
		}
	}
	for _, reason := range []string{"eos", "abort"} {
		s := llmtest.New(llmtest.Reply{Text: "some text", Finish: reason})
		resp, err := llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil).Complete(context.Background(), request(false, nil))
		s.Close()
		if err != nil || resp.FinishReason != reason {
			t.Errorf("openai %s: %+v %v", reason, resp, err)
		}
	}
}

// TestOnlyCompleteAnswersAreCached: an answer whose finish reason is not
// stop — cut, paused, or of a reason not known — is not stored.
func TestOnlyCompleteAnswersAreCached(t *testing.T) {
	for _, reason := range []string{"max_tokens", "model_context_window_exceeded", "pause_turn", "a_reason_from_later", "end_turn"} {
		s := llmtest.New(llmtest.Reply{Text: "some text", Finish: reason})
		store := cache.NewMem()
		p := llm.Cached(llm.NewAnthropic("anthropic", s.AnthropicURL(), "k", nil), store, llm.CacheOptions{Key: func(llm.Request) string { return "k" }, TTL: time.Hour, Read: true})
		for range 2 {
			if _, err := p.Complete(context.Background(), request(false, nil)); err != nil {
				t.Fatal(err)
			}
		}
		if want := map[bool]int{true: 1, false: 2}[reason == "end_turn"]; s.Count() != want {
			t.Errorf("%s: %d requests, want %d", reason, s.Count(), want)
		}
		s.Close()
	}
}

// TestACutAnswerIsAFailureUnlessTheCallerBranchesOnIt: an answer cut at
// max tokens, in either wire format, whole or streamed, is a failure
// through WithRetry naming the cap (one request: it would be cut again);
// a request whose caller branches on the finish reason gets the answer
// with FinishLength.
func TestACutAnswerIsAFailureUnlessTheCallerBranchesOnIt(t *testing.T) {
	policy := llm.Policy{Attempts: 3, Delay: time.Millisecond}
	forEachAdapter(t, func(t *testing.T, mk func(*llmtest.Server) llm.Provider, stream bool) {
		s := llmtest.NewFunc(func(r llmtest.Request) llmtest.Reply {
			if strings.HasSuffix(r.Path, "/chat/completions") {
				return llmtest.Reply{Text: "The first part of", Finish: "length"}
			}
			return llmtest.Reply{Text: "The first part of", Finish: "max_tokens"}
		})
		defer s.Close()
		req := request(stream, &strings.Builder{})
		_, err := llm.WithRetry(llm.Target{Provider: mk(s), Model: "m-1"}, policy, nil).Complete(context.Background(), req)
		declined(t, err, llm.FinishLength, []string{"cut off at max_tokens 50", "raise max_tokens"}, nil)
		if s.Count() != 1 {
			t.Errorf("a cut answer was asked again: %d requests", s.Count())
		}
		req.CutIsAnswer = true
		resp, err := llm.WithRetry(llm.Target{Provider: mk(s), Model: "m-1"}, policy, nil).Complete(context.Background(), req)
		if err != nil || resp.FinishReason != llm.FinishLength || resp.Text != "The first part of" {
			t.Errorf("a caller that branches on the finish reason got %+v, %v", resp, err)
		}
	})
}
