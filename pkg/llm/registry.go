package llm

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Registry resolves model names to ready providers.
type Registry struct {
	providers       map[string]ProviderConfig
	defaultProvider string
	getenv          func(string) string
	client          *http.Client

	mu    sync.Mutex
	ready map[string]Provider
	// embedders are the ready providers' embeddings endpoints (embed.go).
	embedders map[string]Embedder
	// concurrent caps the requests in flight per provider.
	concurrent int
	// aliases are config's model_aliases: a short name for a model.
	aliases map[string]Alias
}

// Alias is a short name for a model (config model_aliases), with the
// request params every request to it carries unless the request sets its
// own.
type Alias struct {
	// Model is provider/model, or another alias.
	Model  string
	Params Params
}

// SetAliases names models (config model_aliases: {fast:
// anthropic/claude-haiku-4-5}): a step's model, fallback or --model may
// then be the alias. An alias may name another alias.
func (r *Registry) SetAliases(aliases map[string]Alias) { r.aliases = aliases }

// resolveAlias follows aliases from model, up to a depth that only a
// cycle reaches, and gathers their params: an alias's own over those of
// the alias it names.
func (r *Registry) resolveAlias(model string) (string, Params, error) {
	seen := []string{model}
	var params Params
	for range 16 {
		next, ok := r.aliases[model]
		if !ok {
			next, ok = r.aliases[strings.ToLower(model)]
		}
		if !ok {
			return model, params, nil
		}
		model, params = next.Model, params.Over(next.Params)
		if slices.Contains(seen, model) {
			break
		}
		seen = append(seen, model)
	}
	return "", Params{}, &ConfigError{Msg: fmt.Sprintf("model_aliases: %s is a cycle", strings.Join(append(seen, model), " → "))}
}

// SetConcurrency caps the requests in flight to each provider
// (max_parallel_llm); 0 means no cap.
func (r *Registry) SetConcurrency(n int) { r.concurrent = n }

// NewRegistry builds a registry of the built-in providers (anthropic,
// openai, ollama) and those of config, which may replace a built-in.
// getenv reads keys and base URLs; client may be nil.
func NewRegistry(configured map[string]ProviderConfig, defaultProvider string, getenv func(string) string, client *http.Client) *Registry {
	ollama, ollamaFrom := getenv("OLLAMA_HOST"), "OLLAMA_HOST"
	if ollama == "" {
		ollama, ollamaFrom = "http://127.0.0.1:11434", "the default; set OLLAMA_HOST to change it"
	}
	if !strings.Contains(ollama, "://") {
		ollama = "http://" + ollama
	}
	p := map[string]ProviderConfig{
		"anthropic": {Type: "anthropic", APIKeyEnv: "ANTHROPIC_API_KEY", BaseURLEnv: "ANTHROPIC_BASE_URL"},
		"openai":    {Type: "openai", APIKeyEnv: "OPENAI_API_KEY", BaseURLEnv: "OPENAI_BASE_URL"},
		"ollama":    {Type: "ollama", BaseURL: strings.TrimRight(ollama, "/") + "/v1", BaseURLFrom: ollamaFrom},
	}
	r := &Registry{providers: p, defaultProvider: defaultProvider, getenv: getenv, client: client, ready: map[string]Provider{}, embedders: map[string]Embedder{}}
	for name, c := range configured {
		p[name] = r.configure(name, c)
	}
	return r
}

// ConfigError says what to set for a model to be usable.
type ConfigError struct {
	Msg string
	// MissingKey is set when the only problem is a missing API key (an
	// unset variable, an absent key file). A fallback model in that state
	// is skipped rather than stopping the run.
	MissingKey bool
}

func (e *ConfigError) Error() string { return e.Msg }

// Split resolves a model name to its provider and the provider's model
// name: provider/model as written; a bare name by default_provider, else
// by family (claude-* is anthropic; gpt-*, o1*, o3*, o4* are openai), or
// by its form: name:tag (llama3.2:1b, as OCC's chains and Ollama write
// them) is ollama's.
func (r *Registry) Split(model string) (provider, name string, err error) {
	if model, _, err = r.resolveAlias(model); err != nil {
		return "", "", err
	}
	if p, m, ok := strings.Cut(model, "/"); ok {
		if _, known := r.providers[p]; !known {
			return "", "", &ConfigError{Msg: fmt.Sprintf("model %q: no provider named %q (providers: %s; add one under providers: in config)", model, p, strings.Join(r.names(), ", "))}
		}
		if m == "" {
			return "", "", &ConfigError{Msg: fmt.Sprintf("model %q names no model after the provider", model)}
		}
		return p, m, nil
	}
	if r.defaultProvider != "" {
		if _, known := r.providers[r.defaultProvider]; !known {
			return "", "", &ConfigError{Msg: fmt.Sprintf("default_provider %q is not a provider (providers: %s)", r.defaultProvider, strings.Join(r.names(), ", "))}
		}
		return r.defaultProvider, model, nil
	}
	switch {
	case strings.HasPrefix(model, "claude"):
		return "anthropic", model, nil
	case strings.HasPrefix(model, "gpt-"), strings.HasPrefix(model, "o1"), strings.HasPrefix(model, "o3"), strings.HasPrefix(model, "o4"), strings.HasPrefix(model, "chatgpt"):
		return "openai", model, nil
	case ollamaTagged(model):
		return "ollama", model, nil
	}
	return "", "", &ConfigError{Msg: fmt.Sprintf("model %q: cannot tell its provider; write provider/model (e.g. ollama/%s) or set default_provider", model, model)}
}

// Target returns a ready provider for the model, or a ConfigError that
// says which key or setting is missing.
func (r *Registry) Target(model string) (Target, error) {
	pname, name, err := r.Split(model)
	if err != nil {
		return Target{}, err
	}
	params := r.AliasParams(model)
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.providers[pname]
	if p, ok := r.ready[pname]; ok {
		return Target{Provider: p, Model: name, Kind: kindOf(c.Type), Params: params}, nil
	}
	key, kerr := c.apiKey(r.getenv)
	if kerr != nil {
		kerr.Msg = fmt.Sprintf("model %s/%s %s", pname, name, kerr.Msg)
		return Target{}, kerr
	}
	base, from := c.BaseURL, c.BaseURLFrom
	if c.BaseURLEnv != "" {
		if v := r.getenv(c.BaseURLEnv); v != "" {
			base, from = v, c.BaseURLEnv
		} else if base == "" {
			from = "the default; set " + c.BaseURLEnv + " to change it"
		}
	}
	headers := WithHeaders(c.expandedHeaders(r.getenv))
	var p Provider
	switch c.Type {
	case "anthropic":
		p = NewAnthropic(pname, base, key, r.client, headers)
	case "openai", "ollama":
		o := NewOpenAI(pname, base, key, r.client, headers).WithTokenParam(c.TokenParam)
		o.ollama = c.Type == "ollama"
		p, r.embedders[pname] = o, o
	case "azure":
		o := NewAzureOpenAI(pname, base, key, c.APIVersion, r.client, headers).WithTokenParam(c.TokenParam)
		p, r.embedders[pname] = o, o
	default:
		return Target{}, &ConfigError{Msg: fmt.Sprintf("provider %q: type %q is not %s", pname, c.Type, typeList)}
	}
	p = endpointNamed(p, endpointOf(c.Type, base), from)
	p = Limited(p, Limits{Concurrent: r.concurrent, RequestsPerMinute: c.RequestsPerMinute})
	r.ready[pname] = p
	return Target{Provider: p, Model: name, Kind: kindOf(c.Type), Params: params}, nil
}

// Describe is the target of model as far as it is known without its key
// (no Provider): which API it speaks and the alias's params, so that what
// the API refuses is found on a machine without keys too.
func (r *Registry) Describe(model string) (provider string, t Target, err error) {
	pname, name, err := r.Split(model)
	if err != nil {
		return "", Target{}, err
	}
	return pname, Target{Model: name, Kind: kindOf(r.providers[pname].Type), Params: r.AliasParams(model)}, nil
}

// AliasParams are the params of model's aliases (none for a model that
// is no alias, or an alias in a cycle, which Split reports).
func (r *Registry) AliasParams(model string) Params {
	_, params, _ := r.resolveAlias(model)
	return params
}

// checkAliasParams refuses an alias's params that its provider's API
// does not take, naming the alias: they would be refused at every
// request.
func (r *Registry) checkAliasParams() error {
	for _, name := range slices.Sorted(maps.Keys(r.aliases)) {
		if r.aliases[name].Params.IsZero() {
			continue
		}
		pname, _, err := r.Split(name)
		if err != nil {
			return fmt.Errorf("config model_aliases.%s: %v", name, err)
		}
		kind := kindOf(r.providers[pname].Type)
		if bad := r.AliasParams(name).Unsupported(kind); len(bad) > 0 {
			return fmt.Errorf("config model_aliases.%s.params: %s does not take %s; remove them, or pass them under extra: as that API names them", name, pname, strings.Join(bad, ", "))
		}
	}
	return nil
}

func (r *Registry) names() []string {
	out := make([]string, 0, len(r.providers))
	for n := range r.providers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ollamaTagged reports whether a bare model name is written as Ollama
// names its models, name:tag (llama3.2:1b, qwen2.5-coder:7b,
// mistral:latest): the tag is letters, digits, '.', '_' and '-'.
func ollamaTagged(model string) bool {
	name, tag, ok := strings.Cut(model, ":")
	if !ok || name == "" || tag == "" {
		return false
	}
	for _, c := range tag {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// kindOf is the API a provider type speaks.
func kindOf(providerType string) string {
	if providerType == "anthropic" {
		return KindAnthropic
	}
	return KindOpenAI
}
