package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chainrun/chainrun/pkg/fsutil"
)

// ProviderConfig is an endpoint: a built-in one or one named in config
// (`providers: {name: {type, base_url, api_key_env, ...}}`).
type ProviderConfig struct {
	// Type is the wire format spoken: anthropic, openai, ollama (openai's
	// format at OLLAMA_HOST) or azure (openai's format at Azure OpenAI's
	// deployment URLs).
	Type    string `json:"type" mapstructure:"type"`
	BaseURL string `json:"base_url" mapstructure:"base_url"`
	// The API key comes from one of: APIKeyEnv, the variable holding it;
	// APIKeyFile, a file holding it (~ and $VARS expanded); APIKeyCmd, a
	// shell command that prints it (a password manager, a cloud CLI's
	// token), run once per process. None: the server needs no key.
	APIKeyEnv  string `json:"api_key_env" mapstructure:"api_key_env"`
	APIKeyFile string `json:"api_key_file" mapstructure:"api_key_file"`
	APIKeyCmd  string `json:"api_key_cmd" mapstructure:"api_key_cmd"`
	// Headers are sent with every request (a gateway's routing header,
	// OpenAI-Organization, ...); $VAR and ${VAR} in values are read from
	// the environment, so a secret header need not be written down.
	Headers map[string]string `json:"headers" mapstructure:"headers"`
	// APIVersion is Azure OpenAI's api-version (DefaultAzureAPIVersion
	// when empty).
	APIVersion string `json:"api_version" mapstructure:"api_version"`
	// TokenParam is the name an OpenAI-type endpoint takes the answer's
	// cap under: max_tokens or max_completion_tokens; empty chooses by
	// provider and model family (OpenAITokenParam).
	TokenParam string `json:"token_param" mapstructure:"token_param"`
	// BaseURLEnv, for built-ins, names the variable that overrides
	// BaseURL (ANTHROPIC_BASE_URL, OPENAI_BASE_URL).
	BaseURLEnv string `json:"-" mapstructure:"-"`
	// BaseURLFrom names the setting that chose BaseURL (a variable or a
	// config key), for errors that say which endpoint failed and why.
	BaseURLFrom string `json:"-" mapstructure:"-"`
	// RequestsPerMinute caps the requests started per minute, shared by
	// all steps of a run (0: no cap).
	RequestsPerMinute int `json:"requests_per_minute" mapstructure:"requests_per_minute"`
}

// providerTypes are the wire formats a provider may speak.
var providerTypes = []string{"anthropic", "openai", "ollama", "azure"}

const typeList = "anthropic, openai, ollama or azure"

// keyCmdTimeout bounds an api_key_cmd: a password manager waiting for a
// person must not hang a CI job.
const keyCmdTimeout = 30 * time.Second

// configure merges a config entry into the built-in provider of the same
// name, field by field (a config base_url or key source replaces the
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
	if c.APIKeyEnv != "" || c.APIKeyFile != "" || c.APIKeyCmd != "" {
		base.APIKeyEnv, base.APIKeyFile, base.APIKeyCmd = c.APIKeyEnv, c.APIKeyFile, c.APIKeyCmd
	}
	if c.Headers != nil {
		base.Headers = c.Headers
	}
	if c.APIVersion != "" {
		base.APIVersion = c.APIVersion
	}
	if c.RequestsPerMinute != 0 {
		base.RequestsPerMinute = c.RequestsPerMinute
	}
	return base
}

// maxKeyFile bounds an api_key_file: a key, read from a regular file
// only, so that a FIFO or a device named there cannot hang a run.
const maxKeyFile = 64 << 10

// apiKey reads the key from the provider's one source; "" when it needs
// none. The key itself never appears in an error.
func (c ProviderConfig) apiKey(getenv func(string) string) (string, *ConfigError) {
	switch {
	case c.APIKeyCmd != "":
		return runKeyCmd(c.APIKeyCmd)
	case c.APIKeyFile != "":
		path := expandPath(c.APIKeyFile, getenv)
		data, err := fsutil.ReadRegular(path, maxKeyFile)
		if err != nil {
			return "", &ConfigError{Msg: fmt.Sprintf("needs an API key: api_key_file %s: %v", c.APIKeyFile, unwrapPath(err)), MissingKey: errors.Is(err, os.ErrNotExist)}
		}
		key := strings.TrimSpace(string(data))
		if key == "" {
			return "", &ConfigError{Msg: fmt.Sprintf("needs an API key: api_key_file %s is empty", c.APIKeyFile), MissingKey: true}
		}
		return key, nil
	case c.APIKeyEnv != "":
		key := getenv(c.APIKeyEnv)
		if key == "" {
			return "", &ConfigError{Msg: "needs an API key: set " + c.APIKeyEnv, MissingKey: true}
		}
		return key, nil
	}
	return "", nil
}

// runKeyCmd runs an api_key_cmd with sh and reads the key from its
// standard output. Its standard error is shown when it fails.
func runKeyCmd(command string) (string, *ConfigError) {
	ctx, cancel := context.WithTimeout(context.Background(), keyCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		why := err.Error()
		if ctx.Err() != nil {
			why = "timed out after " + keyCmdTimeout.String()
		}
		if msg := firstLine(strings.TrimSpace(stderr.String())); msg != "" {
			why += ": " + clip(msg, 200)
		}
		return "", &ConfigError{Msg: fmt.Sprintf("needs an API key: api_key_cmd %q failed: %s", command, why)}
	}
	key := strings.TrimSpace(stdout.String())
	if key == "" {
		return "", &ConfigError{Msg: fmt.Sprintf("needs an API key: api_key_cmd %q printed nothing", command), MissingKey: true}
	}
	return key, nil
}

// expandedHeaders is Headers with $VAR and ${VAR} read from getenv.
func (c ProviderConfig) expandedHeaders(getenv func(string) string) map[string]string {
	if len(c.Headers) == 0 {
		return nil
	}
	out := make(map[string]string, len(c.Headers))
	for k, v := range c.Headers {
		out[k] = os.Expand(v, getenv)
	}
	return out
}

// expandPath expands a leading ~ and $VARS in a configured path.
func expandPath(path string, getenv func(string) string) string {
	path = os.Expand(path, getenv)
	if rest, ok := strings.CutPrefix(path, "~"); ok && (rest == "" || rest[0] == '/') {
		if home := getenv("HOME"); home != "" {
			path = home + rest
		}
	}
	return path
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckProviders reports the first provider of a config that cannot work:
// a type that is not one of the wire formats, none for a name that is
// not built in, no base_url where one is needed, two sources for one key,
// a header that cannot be sent.
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
		case p.Type == "" && builtin:
		case p.Type == "":
			return fmt.Errorf("config providers.%s: type is required (%s)", name, typeList)
		case !slices.Contains(providerTypes, p.Type):
			return fmt.Errorf("config providers.%s: type %q is not %s", name, p.Type, typeList)
		}
		if p.Type != "ollama" && p.BaseURL == "" && !builtin {
			return fmt.Errorf("config providers.%s: base_url is required", name)
		}
		sources := 0
		for _, s := range []string{p.APIKeyEnv, p.APIKeyFile, p.APIKeyCmd} {
			if s != "" {
				sources++
			}
		}
		if sources > 1 {
			return fmt.Errorf("config providers.%s: set one of api_key_env, api_key_file and api_key_cmd", name)
		}
		if p.APIVersion != "" && p.Type != "azure" {
			return fmt.Errorf("config providers.%s: api_version applies to type azure only", name)
		}
		switch {
		case p.TokenParam == "":
		case p.Type == "anthropic" || p.Type == "" && name == "anthropic":
			return fmt.Errorf("config providers.%s: token_param applies to OpenAI-type providers (the Messages API takes max_tokens)", name)
		case p.TokenParam != TokenParamMaxTokens && p.TokenParam != TokenParamMaxCompletionTokens:
			return fmt.Errorf("config providers.%s: token_param %q is not %s or %s", name, p.TokenParam, TokenParamMaxTokens, TokenParamMaxCompletionTokens)
		}
		for k, v := range p.Headers {
			if err := CheckHeader(k, v); err != nil {
				return fmt.Errorf("config providers.%s.headers: %v", name, err)
			}
		}
	}
	return nil
}

// ProviderFields are the fields a config provider may set, as written in
// config.
var ProviderFields = []string{"type", "base_url", "api_key_env", "api_key_file", "api_key_cmd", "headers", "api_version", "requests_per_minute", "token_param"}

// CheckProviderFields reports the first field of config's providers
// section (as read, before decoding) that is not a provider field: a
// misspelt one would otherwise be dropped without a word, and a literal
// api_key would never be used.
func CheckProviderFields(raw any) error {
	section, _ := raw.(map[string]any)
	names := slices.Sorted(maps.Keys(section))
	for _, name := range names {
		fields, ok := section[name].(map[string]any)
		if !ok {
			if section[name] != nil {
				return fmt.Errorf("config providers.%s: want a mapping of fields (%s)", name, strings.Join(ProviderFields, ", "))
			}
			continue
		}
		for _, f := range slices.Sorted(maps.Keys(fields)) {
			if !slices.Contains(ProviderFields, f) {
				hint := ""
				if f == "api_key" {
					hint = "; a key is never written in config: use api_key_env, api_key_file or api_key_cmd"
				}
				return fmt.Errorf("config providers.%s: unknown field %q (fields: %s)%s", name, f, strings.Join(ProviderFields, ", "), hint)
			}
		}
	}
	return nil
}

// ProvidersFromConfig reads config's providers section as the config
// file gave it (a mapping of mappings), refusing an unknown field, a value
// of the wrong type and a provider that cannot work, each named.
func ProvidersFromConfig(raw any) (map[string]ProviderConfig, error) {
	if err := CheckProviderFields(raw); err != nil {
		return nil, err
	}
	out := map[string]ProviderConfig{}
	section, _ := raw.(map[string]any)
	for name, fields := range section {
		var p ProviderConfig
		data, err := json.Marshal(fields)
		if err == nil {
			err = json.Unmarshal(data, &p)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("config providers.%s.%s: want %s, not %s", name, te.Field, te.Type, te.Value)
		} else if err != nil {
			return nil, fmt.Errorf("config providers.%s: %v", name, err)
		}
		out[name] = p
	}
	return out, CheckProviders(out)
}

// AliasesFromConfig reads config's model_aliases: {alias: provider/model}
// or {alias: {model: provider/model, params: {...}}}, the params read by
// decode (nil refuses them: who reads params knows their rules).
func AliasesFromConfig(raw any, decode func(any) (Params, error)) (map[string]Alias, error) {
	out := map[string]Alias{}
	section, ok := raw.(map[string]any)
	if !ok && raw != nil {
		return nil, fmt.Errorf("config model_aliases: want a mapping of alias: provider/model")
	}
	for alias, v := range section {
		switch v := v.(type) {
		case string:
			if v != "" {
				out[alias] = Alias{Model: v}
				continue
			}
		case map[string]any:
			a, err := aliasOf(alias, v, decode)
			if err != nil {
				return nil, err
			}
			out[alias] = a
			continue
		}
		return nil, fmt.Errorf("config model_aliases.%s: want a model name (provider/model) or {model, params}, not %v", alias, v)
	}
	return out, nil
}

// aliasOf reads an alias written as a mapping: {model, params}.
func aliasOf(alias string, m map[string]any, decode func(any) (Params, error)) (Alias, error) {
	for k := range m {
		if k != "model" && k != "params" {
			return Alias{}, fmt.Errorf("config model_aliases.%s: unknown key %q (an alias has model and params)", alias, k)
		}
	}
	model, _ := m["model"].(string)
	if model == "" {
		return Alias{}, fmt.Errorf("config model_aliases.%s.model: want a model name (provider/model), not %v", alias, m["model"])
	}
	a := Alias{Model: model}
	if raw, ok := m["params"]; ok {
		if decode == nil {
			return Alias{}, fmt.Errorf("config model_aliases.%s.params: not read here", alias)
		}
		p, err := decode(raw)
		if err != nil {
			return Alias{}, fmt.Errorf("config model_aliases.%s.params: %v", alias, err)
		}
		a.Params = p
	}
	return a, nil
}
