package cmd

import (
	"os"

	"github.com/chainrun/chainrun/pkg/llm"
)

// keyModel is --model, also read from CHAINRUN_MODEL.
const keyModel = "model"

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
		switch p.Type {
		case "anthropic", "openai", "ollama":
		default:
			return nil, usagef("config providers.%s: type %q is not anthropic, openai or ollama", name, p.Type)
		}
	}
	return llm.NewRegistry(configured, v.GetString(keyDefaultProvider), os.Getenv, nil), nil
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
