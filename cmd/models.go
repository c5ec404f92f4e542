package cmd

import (
	"os"

	"github.com/chainrun/chainrun/pkg/llm"
)

// keyModel is --model, also read from CHAINRUN_MODEL.
const (
	keyModel          = "model"
	keyMaxParallelLLM = "max_parallel_llm"
)

// registry builds the model providers: the built-in ones and config
// providers, keys and base URLs read from the environment.
func (f *factory) registry() (*llm.Registry, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	configured := map[string]llm.ProviderConfig{}
	if err := v.UnmarshalKey("providers", &configured); err != nil {
		return nil, usagef("config providers: %v", err)
	}
	for name, p := range configured {
		builtin := name == "anthropic" || name == "openai" || name == "ollama"
		switch {
		case p.Type == "anthropic", p.Type == "openai", p.Type == "ollama":
		case p.Type == "" && builtin:
		case p.Type == "":
			return nil, usagef("config providers.%s: type is required (anthropic, openai or ollama)", name)
		default:
			return nil, usagef("config providers.%s: type %q is not anthropic, openai or ollama", name, p.Type)
		}
		if p.Type != "ollama" && p.BaseURL == "" && !builtin {
			return nil, usagef("config providers.%s: base_url is required", name)
		}
	}
	r := llm.NewRegistry(configured, v.GetString(keyDefaultProvider), os.Getenv, nil)
	if n := v.GetInt(keyMaxParallelLLM); n < 0 {
		return nil, usagef("max_parallel_llm must be 0 (no cap) or more")
	} else {
		r.SetConcurrency(n)
	}
	return r, nil
}

// defaultModel is the model of agent steps that name none: --model, else
// CHAINRUN_MODEL, else config default_model.
func (f *factory) defaultModel() string {
	v, err := f.config()
	if err != nil {
		return ""
	}
	if m := v.GetString(keyModel); m != "" {
		return m
	}
	return v.GetString(keyDefaultModel)
}

// prices is what models cost: config `prices` (USD per million tokens,
// {input, output}, by provider/model or model name prefix) before the
// built-in list prices.
func (f *factory) prices() (*llm.Prices, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	custom := map[string]llm.Price{}
	if err := v.UnmarshalKey("prices", &custom); err != nil {
		return nil, usagef("config prices: %v (write model: {input: USD per million tokens, output: ...})", err)
	}
	return llm.NewPrices(custom), nil
}
