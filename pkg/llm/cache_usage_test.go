package llm_test

import (
	"context"
	"math"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
)

// TestPromptCacheTokensAreRead: both APIs' cache counts become one usage
// whose input counts every token once, whole or streamed; the cost prices
// each part at its own price.
func TestPromptCacheTokensAreRead(t *testing.T) {
	want := llm.Usage{InputTokens: 1000 + 200 + 3000, OutputTokens: 50, CacheReadTokens: 3000, CacheWriteTokens: 200}
	anth := `{"model":"m","stop_reason":"end_turn","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1000,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":50}}`
	s, _ := rawServer(t, 200, "application/json", anth)
	resp, err := llm.NewAnthropic("anthropic", s.URL, "k", nil).Complete(context.Background(), hello(false))
	if err != nil || resp.Usage != want {
		t.Errorf("anthropic: %+v %v, want %+v", resp, err, want)
	}
	stream := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":1000,\"cache_creation_input_tokens\":200,\"cache_read_input_tokens\":3000,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":50}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	s, _ = rawServer(t, 200, "text/event-stream", stream)
	resp, err = llm.NewAnthropic("anthropic", s.URL, "k", nil).Complete(context.Background(), hello(true))
	if err != nil || resp.Usage != want {
		t.Errorf("anthropic stream: %+v %v, want %+v", resp, err, want)
	}
	oa := `{"model":"m","choices":[{"index":0,"message":{"content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":4200,"completion_tokens":50,"prompt_tokens_details":{"cached_tokens":3000}}}`
	s, _ = rawServer(t, 200, "application/json", oa)
	resp, err = llm.NewOpenAI("openai", s.URL+"/v1", "k", nil).Complete(context.Background(), hello(false))
	if w := (llm.Usage{InputTokens: 4200, OutputTokens: 50, CacheReadTokens: 3000}); err != nil || resp.Usage != w {
		t.Errorf("openai: %+v %v, want %+v", resp, err, w)
	}

	// Anthropic's list: writes 1.25x, reads 0.1x the input price
	p := llm.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	got := p.Cost(want)
	if exp := (1000*3 + 200*3.75 + 3000*0.3 + 50*15) / 1e6; math.Abs(got-exp) > 1e-12 {
		t.Errorf("cost %v, want %v", got, exp)
	}
	if plain := (llm.Price{Input: 3, Output: 15}).Cost(want); math.Abs(plain-(4200*3+50*15)/1e6) > 1e-12 {
		t.Errorf("without cache prices the cache's tokens are input: %v", plain)
	}
	list, ok := llm.NewPrices(nil).Of("anthropic/claude-sonnet-4-6")
	if !ok || list.CacheRead != 0.3 || list.CacheWrite != 3.75 {
		t.Errorf("list price of a Claude model: %+v", list)
	}
}
