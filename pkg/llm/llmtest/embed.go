package llmtest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// isEmbed reports whether a request is for an embeddings endpoint:
// OpenAI's /v1/embeddings or Ollama's own /api/embed.
func isEmbed(path string) bool {
	return strings.HasSuffix(path, "/embeddings") || strings.HasSuffix(path, "/api/embed")
}

// inputs are an embeddings request's texts: input as one string or a
// list.
func (r Request) inputs() []string {
	switch x := r.Body["input"].(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, v := range x {
			s, _ := v.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// LetterVector is the embedding the server gives a text when the reply
// scripts none: how often each letter a-z occurs in it, so that texts
// with the same words are near (cosine 1 for the same letters) and
// unlike texts far.
func LetterVector(text string) []float64 {
	v := make([]float64, 26)
	for _, r := range strings.ToLower(text) {
		if r >= 'a' && r <= 'z' {
			v[r-'a']++
		}
	}
	return v
}

// embedAnswer writes the answer of an embeddings request in the wire
// format of the endpoint asked: OpenAI's list of {object, index,
// embedding} with usage, or Ollama's embeddings with prompt_eval_count.
func embedAnswer(w http.ResponseWriter, path, model string, reply Reply, req Request) {
	in := req.inputs()
	vecs := reply.Embeddings
	if vecs == nil {
		for _, text := range in {
			vecs = append(vecs, LetterVector(text))
		}
	}
	tokens := 0
	for _, text := range in {
		tokens += len(strings.Fields(text))
	}
	w.Header().Set("Content-Type", "application/json")
	if strings.HasSuffix(path, "/api/embed") {
		body, _ := json.Marshal(map[string]any{"model": model, "embeddings": vecs, "total_duration": 1000, "load_duration": 10, "prompt_eval_count": tokens})
		_, _ = w.Write(body)
		return
	}
	var data []map[string]any
	for i, v := range vecs {
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
	}
	body, _ := json.Marshal(map[string]any{"object": "list", "data": data, "model": model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
	_, _ = w.Write(body)
}
