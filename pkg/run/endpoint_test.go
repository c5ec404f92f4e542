package run

import (
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// A connection that fails names the host:port tried and what set the
// URL: the model provider's variable, or the http step's url.
func TestConnectionErrorsNameTheEndpointAndItsSetting(t *testing.T) {
	s := llmtest.New()
	defer s.Close()
	res := runChain(t, "name: t\nsteps:\n  - {id: ask, model: openai/m, prompt: hi, retry: 1}\n", nil,
		WithModels(registryFor(s, map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"})))
	if e := step(t, res, "ask").Error; !strings.Contains(e, "connection failed") || !strings.Contains(e, "127.0.0.1:1, set by OPENAI_BASE_URL") {
		t.Errorf("model error: %s", e)
	}
	res = runChain(t, "name: t\ninputs: [{name: api, default: 'http://127.0.0.1:1'}]\nsteps:\n  - {id: get, type: http, url: '{input.api}/x'}\n", nil)
	if e := step(t, res, "get").Error; !strings.Contains(e, "127.0.0.1:1, set by {input.api} in the url of step get (line 4)") {
		t.Errorf("http error: %s", e)
	}
}
