package run

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm/llmtest"
	"github.com/chainrun/chainrun/pkg/run/record"
	"github.com/chainrun/chainrun/pkg/run/web"
)

// TestWebToolsInAToolLoop: an agent step that lists WebSearch and
// WebFetch (as OCC's chains do) searches through the run's search
// provider and reads a page as text, its tags and scripts taken out.
func TestWebToolsInAToolLoop(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/search" {
			json.NewEncoder(w).Encode(map[string]any{"results": []map[string]string{{"title": "Go modules", "url": "http://x/a", "content": "about modules: " + r.URL.Query().Get("q")}}})
			return
		}
		w.Write([]byte("<!DOCTYPE html><html><head><script>var hidden = 1;</script><style>p{}</style></head><body><p>Modules are &quot;units&quot; of versioning.</p></body></html>"))
	}))
	defer site.Close()
	s := llmtest.New(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "WebSearch", Arguments: `{"query": "go modules"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "WebFetch", Arguments: `{"url": "` + site.URL + `/page", "prompt": "what they are"}`}}},
		llmtest.Reply{Text: "Modules are units of versioning."},
	)
	defer s.Close()
	src := "name: t\nsteps:\n  - id: a\n    model: anthropic/claude-haiku-4-5\n    tools: [WebSearch, WebFetch]\n    prompt: What are Go modules?\n    output_var: a\noutput: a\n"
	res := runChain(t, src, nil, WithModels(registryFor(s, nil)), WithSearch(web.Provider{URL: site.URL + "/search"}))
	if res.Status != record.Succeeded || res.Output != "Modules are units of versioning." {
		t.Fatalf("status %s output %v error %q", res.Status, res.Output, res.Error)
	}
	reqs := s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	b, _ := json.Marshal(reqs[2].Body)
	body := string(b)
	for _, want := range []string{"1. Go modules", "about modules: go modules", `Modules are \"units\" of versioning.`} {
		if !strings.Contains(body, want) {
			t.Errorf("the tool results the model read hold no %q:\n%s", want, body)
		}
	}
	for _, hidden := range []string{"var hidden", "<p>", "p{}"} {
		if strings.Contains(body, hidden) {
			t.Errorf("the page's %q reached the model", hidden)
		}
	}
}
