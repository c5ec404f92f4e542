package llm

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
)

// ProviderConfig is an endpoint: a built-in one or one named in config
// (`providers: {name: {type, base_url, api_key_env}}`).
type ProviderConfig struct {
	// Type is anthropic, openai or ollama (the wire format spoken).
	Type    string `json:"type" mapstructure:"type"`
	BaseURL string `json:"base_url" mapstructure:"base_url"`
	// APIKeyEnv names the environment variable holding the key; empty for
	// servers that need none.
	APIKeyEnv string `json:"api_key_env" mapstructure:"api_key_env"`
	// BaseURLEnv, for built-ins, names the variable that overrides
	// BaseURL (ANTHROPIC_BASE_URL, OPENAI_BASE_URL).
	BaseURLEnv string `json:"-"`
	// BaseURLFrom names the setting that chose BaseURL (a variable or a
	// config key), for errors that say which endpoint failed and why.
	BaseURLFrom string `json:"-"`
	// RequestsPerMinute caps the requests started per minute, shared by
	// all steps of a run (0: no cap).
	RequestsPerMinute int `json:"requests_per_minute" mapstructure:"requests_per_minute"`
}

// Registry resolves model names to ready providers.
type Registry struct {
	providers       map[string]ProviderConfig
	defaultProvider string
	getenv          func(string) string
	client          *http.Client

	mu    sync.Mutex
	ready map[string]Provider
	// concurrent caps the requests in flight per provider.
	concurrent int
}

// SetConcurrency caps the requests in flight to each provider
// (max_parallel_llm); 0 means no cap.
func (r *Registry) SetConcurrency(n int) { r.concurrent = n }

// configure merges a config entry into the built-in provider of the same
// name, field by field (a config base_url or api_key_env replaces the
// built-in's; its environment variable no longer applies). A named ollama
// provider without base_url uses OLLAMA_HOST's.
func (r *Registry) configure(name string, c ProviderConfig) ProviderConfig {
	base, builtin := r.providers[name]
	if !builtin {
		c.BaseURLFrom = "providers." + name + ".base_url in config"
		if c.Type == "ollama" && c.BaseURL == "" {
			c.BaseURL, c.BaseURLFrom = r.providers["ollama"].BaseURL, r.providers["ollama"].BaseURLFrom
		}
		return c
	}
	if c.Type != "" {
		base.Type = c.Type
	}
	if c.BaseURL != "" {
		base.BaseURL, base.BaseURLEnv, base.BaseURLFrom = c.BaseURL, "", "providers."+name+".base_url in config"
	}
	if c.APIKeyEnv != "" {
		base.APIKeyEnv = c.APIKeyEnv
	}
	if c.RequestsPerMinute != 0 {
		base.RequestsPerMinute = c.RequestsPerMinute
	}
	return base
}

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
	r := &Registry{providers: p, defaultProvider: defaultProvider, getenv: getenv, client: client, ready: map[string]Provider{}}
	for name, c := range configured {
		p[name] = r.configure(name, c)
	}
	return r
}

// ConfigError says what to set for a model to be usable.
type ConfigError struct {
	Msg string
	// KeyEnv is set when the only problem is a missing API key: the
	// variable to set. A fallback model in that state is skipped rather
	// than stopping the run.
	KeyEnv string
}

func (e *ConfigError) Error() string { return e.Msg }

// Split resolves a model name to its provider and the provider's model
// name: provider/model as written; a bare name by default_provider, else
// by family (claude-* is anthropic; gpt-*, o1*, o3*, o4* are openai).
func (r *Registry) Split(model string) (provider, name string, err error) {
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
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.ready[pname]; ok {
		return Target{Provider: p, Model: name}, nil
	}
	c := r.providers[pname]
	key := ""
	if c.APIKeyEnv != "" {
		key = r.getenv(c.APIKeyEnv)
		if key == "" {
			return Target{}, &ConfigError{Msg: fmt.Sprintf("model %s/%s needs an API key: set %s", pname, name, c.APIKeyEnv), KeyEnv: c.APIKeyEnv}
		}
	}
	base, from := c.BaseURL, c.BaseURLFrom
	if c.BaseURLEnv != "" {
		if v := r.getenv(c.BaseURLEnv); v != "" {
			base, from = v, c.BaseURLEnv
		} else if base == "" {
			from = "the default; set " + c.BaseURLEnv + " to change it"
		}
	}
	var p Provider
	switch c.Type {
	case "anthropic":
		p = NewAnthropic(pname, base, key, r.client)
	case "openai", "ollama":
		p = NewOpenAI(pname, base, key, r.client)
	default:
		return Target{}, &ConfigError{Msg: fmt.Sprintf("provider %q: type %q is not anthropic, openai or ollama", pname, c.Type)}
	}
	p = endpointNamed(p, endpointOf(c.Type, base), from)
	p = Limited(p, Limits{Concurrent: r.concurrent, RequestsPerMinute: c.RequestsPerMinute})
	r.ready[pname] = p
	return Target{Provider: p, Model: name}, nil
}

func (r *Registry) names() []string {
	out := make([]string, 0, len(r.providers))
	for n := range r.providers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// CheckProviders reports the first provider of a config that cannot work:
// a type that is not anthropic, openai or ollama, none for a name that is
// not built in, or no base_url where one is needed.
func CheckProviders(configured map[string]ProviderConfig) error {
	names := make([]string, 0, len(configured))
	for name := range configured {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := configured[name]
		builtin := name == "anthropic" || name == "openai" || name == "ollama"
		switch {
		case p.Type == "anthropic", p.Type == "openai", p.Type == "ollama":
		case p.Type == "" && builtin:
		case p.Type == "":
			return fmt.Errorf("config providers.%s: type is required (anthropic, openai or ollama)", name)
		default:
			return fmt.Errorf("config providers.%s: type %q is not anthropic, openai or ollama", name, p.Type)
		}
		if p.Type != "ollama" && p.BaseURL == "" && !builtin {
			return fmt.Errorf("config providers.%s: base_url is required", name)
		}
	}
	return nil
}
