package llm

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// Embedder turns texts into vectors through a provider's embeddings
// endpoint: what a similarity check compares, with no model answering in
// words.
type Embedder interface {
	// Embed returns one vector per input, in order, and the tokens read.
	Embed(ctx context.Context, model string, inputs []string) ([][]float64, Usage, error)
}

// The bodies of OpenAI's POST /v1/embeddings.
type openaiEmbedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type openaiEmbedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
	Usage struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
}

// The bodies of Ollama's own POST /api/embed.
type ollamaEmbedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type ollamaEmbedResponse struct {
	Embeddings      [][]float64 `json:"embeddings"`
	PromptEvalCount int         `json:"prompt_eval_count"`
}

// Embed implements Embedder: POST {base}/embeddings (Azure:
// /openai/deployments/MODEL/embeddings), or Ollama's /api/embed beside
// its /v1 when the provider is of type ollama.
func (o *OpenAI) Embed(ctx context.Context, model string, inputs []string) ([][]float64, Usage, error) {
	if o.ollama {
		return o.ollamaEmbed(ctx, model, inputs)
	}
	path := "/embeddings"
	if o.azure {
		path = "/openai/deployments/" + url.PathEscape(model) + path
	}
	resp, err := o.ep.post(ctx, path, openaiEmbedRequest{Model: model, Input: inputs, EncodingFormat: "float"})
	if err != nil {
		return nil, Usage{}, err
	}
	var answer openaiEmbedResponse
	if err := o.ep.decode(resp, &answer); err != nil {
		return nil, Usage{}, err
	}
	out := make([][]float64, len(inputs))
	for _, d := range answer.Data {
		if d.Index < 0 || d.Index >= len(out) {
			return nil, Usage{}, malformed(o.name, fmt.Sprintf("embedding index %d for %d inputs", d.Index, len(inputs)))
		}
		out[d.Index] = d.Embedding
	}
	return checkVectors(o.name, out, Usage{InputTokens: answer.Usage.PromptTokens})
}

// ollamaEmbed asks Ollama's own embeddings endpoint.
func (o *OpenAI) ollamaEmbed(ctx context.Context, model string, inputs []string) ([][]float64, Usage, error) {
	ep := *o.ep
	ep.base = strings.TrimSuffix(ep.base, "/v1")
	resp, err := ep.post(ctx, "/api/embed", ollamaEmbedRequest{Model: model, Input: inputs})
	if err != nil {
		return nil, Usage{}, err
	}
	var answer ollamaEmbedResponse
	if err := ep.decode(resp, &answer); err != nil {
		return nil, Usage{}, err
	}
	if len(answer.Embeddings) != len(inputs) {
		return nil, Usage{}, malformed(o.name, fmt.Sprintf("%d embeddings for %d inputs", len(answer.Embeddings), len(inputs)))
	}
	return checkVectors(o.name, answer.Embeddings, Usage{InputTokens: answer.PromptEvalCount})
}

// checkVectors refuses an answer with a missing or empty vector.
func checkVectors(provider string, vecs [][]float64, u Usage) ([][]float64, Usage, error) {
	for i, v := range vecs {
		if len(v) == 0 {
			return nil, Usage{}, malformed(provider, fmt.Sprintf("no embedding for input %d", i))
		}
	}
	return vecs, u, nil
}

// Embedder is the embeddings endpoint of model's provider, and the
// provider's name for the model. A provider with none (anthropic) is a
// ConfigError that says so.
func (r *Registry) Embedder(model string) (Embedder, string, error) {
	t, err := r.Target(model)
	if err != nil {
		return nil, "", err
	}
	pname, _, _ := r.Split(model)
	r.mu.Lock()
	e := r.embedders[pname]
	r.mu.Unlock()
	if e == nil {
		return nil, "", &ConfigError{Msg: fmt.Sprintf("model %s/%s: provider %s (type %s) has no embeddings endpoint: use an embedding model of an openai, azure or ollama provider (openai/text-embedding-3-small, ollama/nomic-embed-text)", pname, t.Model, pname, r.providers[pname].Type)}
	}
	return e, t.Model, nil
}
