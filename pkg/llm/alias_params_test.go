package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// decodeSeed reads params of the form {seed: N, top_p: F, extra: {...}}
// for these tests (chainrun reads them by a step's rules, ask.DecodeParams).
func decodeSeed(raw any) (llm.Params, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return llm.Params{}, errors.New("want a mapping")
	}
	var p llm.Params
	if v, ok := m["seed"].(int); ok {
		n := int64(v)
		p.Seed = &n
	}
	if v, ok := m["top_p"].(float64); ok {
		p.TopP = &v
	}
	if v, ok := m["max_output_tokens"].(int); ok {
		p.MaxOutputTokens = v
	}
	if v, ok := m["extra"].(map[string]any); ok {
		p.Extra = v
	}
	return p, nil
}

// TestAliasParamsReachTheWire: a model alias's params are sent with every
// request to it, under the request's own (a step's params win key by key),
// through an alias naming another; a request with a cap of its own keeps it.
func TestAliasParamsReachTheWire(t *testing.T) {
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	settings := llm.Settings{
		Providers: map[string]any{"gw": map[string]any{"type": "openai", "base_url": s.OpenAIURL(), "api_key_env": "K"}},
		Aliases: map[string]any{
			"precise": map[string]any{"model": "gw/big", "params": map[string]any{"seed": 7, "top_p": 0.5, "max_output_tokens": 300, "extra": map[string]any{"service_tier": "flex", "user": "a"}}},
			"team":    map[string]any{"model": "precise", "params": map[string]any{"top_p": 0.2, "extra": map[string]any{"user": "team"}}},
			"plain":   "gw/small",
		},
		DecodeParams: decodeSeed,
	}
	r, err := llm.RegistryFrom(settings, func(string) string { return "k" })
	if err != nil {
		t.Fatal(err)
	}
	ask := func(model string, req llm.Request) map[string]any {
		t.Helper()
		tg, err := r.Target(model)
		if err != nil {
			t.Fatal(err)
		}
		req.Messages = []llm.Message{{Role: llm.User, Content: "hi"}}
		if _, err := llm.WithRetry(tg, llm.DefaultPolicy, nil).Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		reqs := s.Requests()
		return reqs[len(reqs)-1].Body
	}
	b := ask("precise", llm.Request{})
	if b["model"] != "big" || b["seed"] != 7.0 || b["top_p"] != 0.5 || b["service_tier"] != "flex" || b["max_completion_tokens"] != 300.0 && b["max_tokens"] != 300.0 {
		t.Errorf("alias params not sent: %v", b)
	}
	topP := 0.9
	b = ask("team", llm.Request{MaxTokens: 50, Params: llm.Params{TopP: &topP, Extra: map[string]any{"service_tier": "auto"}}})
	if b["seed"] != 7.0 || b["top_p"] != 0.9 || b["service_tier"] != "auto" || b["user"] != "team" {
		t.Errorf("a request's own params win, then the nearer alias's: %v", b)
	}
	if b["max_completion_tokens"] != 50.0 && b["max_tokens"] != 50.0 {
		t.Errorf("the request's own cap is kept: %v", b)
	}
	b = ask("plain", llm.Request{})
	if _, ok := b["seed"]; ok {
		t.Errorf("an alias without params sends none: %v", b)
	}
}

// TestAliasParamsAreChecked: an alias's params its provider's API does
// not take, an alias of an unknown provider with params, a malformed
// alias: each is refused when the config is read, naming the alias.
func TestAliasParamsAreChecked(t *testing.T) {
	providers := map[string]any{"vault": map[string]any{"type": "anthropic", "base_url": "http://127.0.0.1:1", "api_key_env": "K"}}
	for name, tt := range map[string]struct {
		alias any
		want  string
	}{
		"not taken":       {map[string]any{"model": "vault/claude-x", "params": map[string]any{"seed": 3}}, "model_aliases.a.params: vault does not take seed"},
		"unknown model":   {map[string]any{"model": "nowhere/m", "params": map[string]any{"seed": 3}}, `model_aliases.a: model "nowhere/m": no provider named "nowhere"`},
		"unknown key":     {map[string]any{"model": "vault/claude-x", "temperature": 0.1}, `model_aliases.a: unknown key "temperature"`},
		"no model":        {map[string]any{"params": map[string]any{"top_p": 0.5}}, "model_aliases.a.model: want a model name"},
		"params rejected": {map[string]any{"model": "vault/claude-x", "params": "fast"}, "model_aliases.a.params: want a mapping"},
	} {
		_, err := llm.RegistryFrom(llm.Settings{Providers: providers, Aliases: map[string]any{"a": tt.alias}, DecodeParams: decodeSeed, File: "chainrun.yaml"},
			func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "chainrun.yaml: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := llm.AliasesFromConfig(map[string]any{"a": map[string]any{"model": "m", "params": map[string]any{}}}, nil); err == nil || !strings.Contains(err.Error(), "model_aliases.a.params") {
		t.Errorf("params with no reader: %v", err)
	}
}
