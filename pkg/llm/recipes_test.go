package llm_test

import (
	"context"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// TestProviderRecipesAsWritten: every providers: block of
// docs/providers.md is read as chainrun reads config, and each provider
// in it, pointed at a fake server on the same path, gets the request the
// page says: to base_url's path + /chat/completions (Azure's deployment
// URL), with its key where its type sends it, its headers and its answer
// cap under the token_param the recipe names.
func TestProviderRecipesAsWritten(t *testing.T) {
	doc, err := os.ReadFile("../../docs/providers.md")
	if err != nil {
		t.Fatal(err)
	}
	s := llmtest.New(llmtest.Reply{Text: "ok"})
	defer s.Close()
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	seen := 0
	for _, b := range blocks {
		if !strings.Contains(b[1], "providers:") {
			continue
		}
		var cfg struct {
			Providers map[string]map[string]any `yaml:"providers"`
		}
		if err := yaml.Load([]byte(b[1]), &cfg); err != nil {
			t.Fatalf("a yaml block of providers.md does not parse: %v\n%s", err, b[1])
		}
		for name, p := range cfg.Providers {
			base, _ := p["base_url"].(string)
			if p["type"] == nil || base == "" {
				continue // a built-in changed field by field
			}
			seen++
			u, err := url.Parse(base)
			if err != nil {
				t.Fatalf("%s: base_url %q: %v", name, base, err)
			}
			p["base_url"] = s.URL + u.Path
			if p["api_key_cmd"] != nil {
				p["api_key_cmd"] = "echo cmd-key"
			}
			if p["api_key_file"] != nil {
				p["api_key_file"] = writeKey(t, "file-key")
			}
			providers, err := llm.ProvidersFromConfig(map[string]any{name: p})
			if err != nil {
				t.Fatalf("%s as written: %v", name, err)
			}
			tg, err := llm.NewRegistry(providers, "", func(k string) string { return "env-key-" + k }, nil).Target(name + "/some-model")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, err := tg.Provider.Complete(context.Background(), llm.Request{Model: tg.Model, MaxTokens: 77, Messages: []llm.Message{{Role: llm.User, Content: "hi"}}}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			reqs := s.Requests()
			got := reqs[len(reqs)-1]
			wantPath := u.Path + "/chat/completions"
			if p["type"] == "azure" {
				wantPath = u.Path + "/openai/deployments/some-model/chat/completions"
			}
			if got.Path != wantPath {
				t.Errorf("%s: request to %s, want %s", name, got.Path, wantPath)
			}
			key := got.Header.Get("Authorization")
			if p["type"] == "azure" {
				key = got.Header.Get("Api-Key")
			}
			keyed := p["api_key_env"] != nil || p["api_key_cmd"] != nil || p["api_key_file"] != nil
			if keyed != (key != "") || strings.Contains(key, "env-key-") && p["api_key_env"] == nil {
				t.Errorf("%s: key sent as %q", name, key)
			}
			if headers, ok := p["headers"].(map[string]any); ok {
				for h := range headers {
					if got.Header.Get(h) == "" {
						t.Errorf("%s: header %s not sent", name, h)
					}
				}
			}
			param := "max_tokens"
			if tp, ok := p["token_param"].(string); ok {
				param = tp
			} else if p["type"] == "azure" {
				param = "max_completion_tokens"
			}
			if got.Body[param] != 77.0 {
				t.Errorf("%s: the answer cap is not %s: %v", name, param, got.Body)
			}
		}
	}
	if seen < 6 {
		t.Errorf("only %d recipes found in providers.md", seen)
	}
}

func writeKey(t *testing.T, key string) string {
	path := t.TempDir() + "/key"
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
