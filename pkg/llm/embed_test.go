package llm_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/llm/llmtest"
)

// The embeddings endpoints are asked in their own wire formats: OpenAI's
// POST /v1/embeddings {model, input, encoding_format} answered by a list
// of {object: embedding, index, embedding} with usage.prompt_tokens, and
// Ollama's POST /api/embed {model, input} answered by embeddings and
// prompt_eval_count.
func TestEmbeddingsSpeakEachWireFormat(t *testing.T) {
	srv := llmtest.New(llmtest.Reply{Embeddings: [][]float64{{1, 0}, {0, 1}}})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "ok-test", "OPENAI_BASE_URL": srv.OpenAIURL(), "OLLAMA_HOST": srv.URL}
	for _, tc := range []struct {
		model, path string
		body        []string
	}{
		{"openai/text-embedding-3-small", "/v1/embeddings", []string{`"model":"text-embedding-3-small"`, `"input":["a b","c"]`, `"encoding_format":"float"`}},
		{"ollama/nomic-embed-text", "/api/embed", []string{`"model":"nomic-embed-text"`, `"input":["a b","c"]`}},
	} {
		t.Run(tc.model, func(t *testing.T) {
			r := llm.NewRegistry(nil, "", func(k string) string { return env[k] }, nil)
			e, name, err := r.Embedder(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			vecs, usage, err := e.Embed(context.Background(), name, []string{"a b", "c"})
			if err != nil {
				t.Fatal(err)
			}
			if len(vecs) != 2 || !slices.Equal(vecs[0], []float64{1, 0}) || !slices.Equal(vecs[1], []float64{0, 1}) {
				t.Errorf("vectors %v", vecs)
			}
			if usage.InputTokens != 3 {
				t.Errorf("input tokens %d, want 3", usage.InputTokens)
			}
			req := srv.Requests()[len(srv.Requests())-1]
			if req.Path != tc.path {
				t.Errorf("path %s, want %s", req.Path, tc.path)
			}
			for _, want := range tc.body {
				if !strings.Contains(req.Raw(), want) {
					t.Errorf("body %s lacks %s", req.Raw(), want)
				}
			}
		})
	}
}

// OpenAI's answer places each vector by its index, not by its order in
// the list; an answer that leaves an input out, or names an index past
// them, is malformed.
func TestEmbeddingsAnswersAreCheckedAgainstTheInputs(t *testing.T) {
	for _, tc := range []struct {
		name, raw, err string
		want           [][]float64
	}{
		{"by index", `{"object":"list","data":[{"object":"embedding","index":1,"embedding":[2]},{"object":"embedding","index":0,"embedding":[1]}],"usage":{"prompt_tokens":2}}`, "", [][]float64{{1}, {2}}},
		{"one missing", `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1]}]}`, "no embedding for input 1", nil},
		{"index past the inputs", `{"object":"list","data":[{"object":"embedding","index":5,"embedding":[1]}]}`, "embedding index 5 for 2 inputs", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(llmtest.Reply{Raw: tc.raw})
			defer srv.Close()
			vecs, _, err := llm.NewOpenAI("openai", srv.OpenAIURL(), "k", nil).Embed(context.Background(), "m", []string{"x", "y"})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(vecs) != 2 || vecs[0][0] != 1 || vecs[1][0] != 2 {
				t.Fatalf("%v %v", vecs, err)
			}
		})
	}
}

// A provider with no embeddings endpoint is a configuration error that
// says so and names providers that have one; so is an unknown model.
func TestEmbedderOfAProviderWithoutEmbeddings(t *testing.T) {
	r := llm.NewRegistry(nil, "", func(k string) string { return map[string]string{"ANTHROPIC_API_KEY": "ak"}[k] }, nil)
	_, _, err := r.Embedder("anthropic/claude-haiku-4-5")
	if err == nil || !strings.Contains(err.Error(), "provider anthropic (type anthropic) has no embeddings endpoint") {
		t.Fatalf("err %v", err)
	}
	if _, _, err := r.Embedder("nowhere/x"); err == nil || !strings.Contains(err.Error(), `no provider named "nowhere"`) {
		t.Fatalf("err %v", err)
	}
}
