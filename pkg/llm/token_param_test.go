package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// TestTheTokenParamByProviderAndModel: a gateway sends max_tokens, but
// max_completion_tokens for the reasoning families that refuse it;
// OpenAI's own API always the latter; config token_param wins.
func TestTheTokenParamByProviderAndModel(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	gateway := llm.NewOpenAI("gateway", s.OpenAIURL(), "k", nil)
	for _, tc := range []struct {
		p     *llm.OpenAI
		model string
		want  string
	}{
		{gateway, "llama-3.1-70b", "max_tokens"},
		{gateway, "gpt-4o-mini", "max_tokens"},
		{gateway, "o3-mini", "max_completion_tokens"},
		{gateway, "openai/gpt-5-mini", "max_completion_tokens"},
		{gateway, "gpt-5.1", "max_completion_tokens"},
		{gateway, "o4-mini-2025-04-16", "max_completion_tokens"},
		{gateway, "gpt-50x", "max_tokens"},
		{llm.NewOpenAI("openai", s.OpenAIURL(), "k", nil), "gpt-4o-mini", "max_completion_tokens"},
		{llm.NewOpenAI("gw2", s.OpenAIURL(), "k", nil).WithTokenParam("max_completion_tokens"), "llama", "max_completion_tokens"},
		{llm.NewOpenAI("gw3", s.OpenAIURL(), "k", nil).WithTokenParam("max_tokens"), "gpt-5", "max_tokens"},
	} {
		n := len(s.Requests())
		req := hello(false)
		req.Model = tc.model
		if _, err := tc.p.Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		body := s.Requests()[n].Body
		other := "max_tokens"
		if tc.want == other {
			other = "max_completion_tokens"
		}
		if body[tc.want] != 4096.0 || body[other] != nil {
			t.Errorf("%s %s: %v", tc.p.Name(), tc.model, body)
		}
		checkOpenAIBody(t, body)
	}
}

func TestTokenParamIsChecked(t *testing.T) {
	for _, tc := range []struct {
		cfg  map[string]llm.ProviderConfig
		want string
	}{
		{map[string]llm.ProviderConfig{"gw": {Type: "openai", BaseURL: "http://x", TokenParam: "max_output_tokens"}}, `token_param "max_output_tokens" is not max_tokens or max_completion_tokens`},
		{map[string]llm.ProviderConfig{"anthropic": {TokenParam: "max_tokens"}}, "token_param applies to OpenAI-type providers"},
	} {
		err := llm.CheckProviders(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v", tc.cfg, err)
		}
	}
}
