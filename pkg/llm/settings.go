package llm

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
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

// PricesFrom reads config's prices section ({model: {input, output,
// cache_read, cache_write}} in USD per million tokens) before the
// built-in list prices. A price is a number of zero or more: a negative
// one would hide a run's cost from its budget, a misspelt key would price
// its tokens at nothing, so either is refused, naming the model and key.
func PricesFrom(raw any) (*Prices, error) {
	custom := map[string]Price{}
	if raw == nil {
		return NewPrices(custom), nil
	}
	models, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("config prices: want a mapping of model: {input: USD per million tokens, output: ...}")
	}
	for _, model := range slices.Sorted(maps.Keys(models)) {
		p, err := priceFrom(models[model])
		if err != nil {
			return nil, fmt.Errorf("config prices.%s: %v (write %s: {input: USD per million tokens, output: ...})", model, err, model)
		}
		custom[model] = p
	}
	return NewPrices(custom), nil
}

// priceFrom reads one model's price.
func priceFrom(raw any) (Price, error) {
	var p Price
	fields, ok := raw.(map[string]any)
	if !ok {
		return p, fmt.Errorf("want a mapping")
	}
	into := map[string]*float64{"input": &p.Input, "output": &p.Output, "cache_read": &p.CacheRead, "cache_write": &p.CacheWrite}
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		dst, known := into[key]
		if !known {
			return p, fmt.Errorf("unknown key %q (keys: cache_read, cache_write, input, output)", key)
		}
		// a YAML number prints as one (NaN, Inf and all); text, a list or
		// a mapping does not read back as one
		given := fmt.Sprint(fields[key])
		n, err := strconv.ParseFloat(given, 64)
		if str, isText := fields[key].(string); isText {
			given, err = strconv.Quote(str), strconv.ErrSyntax
		}
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
			return p, fmt.Errorf("%s %s: want a number of US dollars per million tokens, 0 or more", key, given)
		}
		*dst = n
	}
	return p, nil
}
