package cassette

import (
	"context"

	"github.com/chainrun/chainrun/pkg/llm"
)

// PurposeEmbedding marks the recording of an embeddings request.
const PurposeEmbedding = "embedding"

// Embedders are Models that also reach embeddings endpoints
// (*llm.Registry is one).
type Embedders interface {
	Embedder(model string) (llm.Embedder, string, error)
}

// Embed is the vector of text from model's embeddings endpoint, asked as
// a chat request is: recorded per asker (llm.Caller of ctx) and played
// back, a miss in ModeNone naming what changed, the live endpoint asked
// only when recording.
func (s *Session) Embed(ctx context.Context, model, text string) ([]float64, error) {
	pname, name, err := s.models.Split(model)
	if err != nil {
		return nil, err
	}
	step := llm.Caller(ctx)
	rec := Request{Provider: pname, Model: name, Purpose: PurposeEmbedding, Messages: []Message{{Role: "input", Content: text}}}
	r, err := s.replay(ctx, step, s.next(step), rec, func(ctx context.Context) (Response, error) {
		e, ok := s.models.(Embedders)
		if !ok {
			return Response{}, &llm.Error{Provider: pname, Message: "recording needs the live embeddings endpoint, which these models do not reach"}
		}
		emb, name, err := e.Embedder(model)
		if err != nil {
			return Response{}, &llm.Error{Provider: pname, Message: "recording needs the live embeddings endpoint: " + err.Error()}
		}
		vecs, usage, err := emb.Embed(ctx, name, []string{text})
		if err != nil {
			return Response{}, err
		}
		return Response{Embedding: vecs[0], Usage: Usage{InputTokens: usage.InputTokens}, Model: name}, nil
	})
	return r.Embedding, err
}
