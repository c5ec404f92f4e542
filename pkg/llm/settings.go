package llm

import (
	"encoding/json"
	"fmt"
)

// Settings are the model settings of chainrun's config, as the config
// file gave them (sections not yet decoded), so that every rule about
// them lives here rather than in the command line's wiring.
type Settings struct {
	// Providers is the providers section: {name: {type, base_url, ...}}.
	Providers any
	// Aliases is model_aliases: {alias: provider/model}, or {alias:
	// {model, params}}.
	Aliases any
	// DecodeParams reads an alias's params, by the rules a step's params
	// follow (nil: aliases may not set params).
	DecodeParams func(any) (Params, error)
	// DefaultProvider serves bare model names.
	DefaultProvider string
	// Concurrency is max_parallel_llm: the requests in flight to each
	// provider (0: no cap).
	Concurrency int
	// File is the config file the sections came from, named in their
	// errors ("" when there is none).
	File string
}

// RegistryFrom builds the registry settings describe, keys and base URLs
// read with getenv. Every fault names the setting.
func RegistryFrom(s Settings, getenv func(string) string) (*Registry, error) {
	inFile := func(err error) error {
		if s.File == "" {
			return err
		}
		return fmt.Errorf("%s: %w", s.File, err)
	}
	configured, err := ProvidersFromConfig(s.Providers)
	if err != nil {
		return nil, inFile(err)
	}
	aliases, err := AliasesFromConfig(s.Aliases, s.DecodeParams)
	if err != nil {
		return nil, inFile(err)
	}
	if s.Concurrency < 0 {
		return nil, fmt.Errorf("--max-parallel-llm %d: want 0 (no cap) or more", s.Concurrency)
	}
	r := NewRegistry(configured, s.DefaultProvider, getenv, nil)
	r.SetAliases(aliases)
	r.SetConcurrency(s.Concurrency)
	if err := r.checkAliasParams(); err != nil {
		return nil, inFile(err)
	}
	return r, nil
}

// PricesFrom reads config's prices section ({model: {input, output}} in
// USD per million tokens) before the built-in list prices.
func PricesFrom(raw any) (*Prices, error) {
	custom := map[string]Price{}
	if raw != nil {
		data, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(data, &custom)
		}
		if err != nil {
			return nil, fmt.Errorf("config prices: %v (write model: {input: USD per million tokens, output: ...})", err)
		}
	}
	return NewPrices(custom), nil
}
