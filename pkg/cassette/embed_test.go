package cassette

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/llm"
)

// embedder is an embeddings endpoint that counts what it was asked: the
// vector of a text is its length and its number of spaces.
type embedder struct{ asked int }

func (e *embedder) Embed(_ context.Context, _ string, in []string) ([][]float64, llm.Usage, error) {
	e.asked++
	var out [][]float64
	for _, s := range in {
		out = append(out, []float64{float64(len(s)), float64(strings.Count(s, " "))})
	}
	return out, llm.Usage{InputTokens: 4}, nil
}

// embedModels are models whose providers embed (or, for anthropic, do not).
type embedModels struct {
	models
	e *embedder
}

func (m embedModels) Embedder(model string) (llm.Embedder, string, error) {
	_, n, err := m.Split(model)
	return m.e, n, err
}

// An embedding is recorded like a model's answer, played back with no
// endpoint, and a changed text is a miss that says what changed.
func TestEmbeddingRecordThenReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.cassette.yaml")
	c, _ := Load(path)
	e := &embedder{}
	ctx := llm.WithCaller(context.Background(), "grade output")
	rec := NewSession(c, "polite", ModeMissing, embedModels{e: e}, nil, nil)
	v, err := rec.Embed(ctx, "openai/text-embedding-3-small", "thank you kindly")
	if err != nil || !slices.Equal(v, []float64{16, 2}) || e.asked != 1 {
		t.Fatalf("%v %v asked %d", v, err, e.asked)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"step: grade output", "purpose: embedding", "content: thank you kindly", "embedding: [16, 2]"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("cassette lacks %q:\n%s", want, data)
		}
	}
	c2, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	play := NewSession(c2, "polite", ModeNone, models{}, nil, nil)
	if v, err := play.Embed(ctx, "openai/text-embedding-3-small", "thank you kindly"); err != nil || !slices.Equal(v, []float64{16, 2}) {
		t.Fatalf("replay: %v %v", v, err)
	}
	_, err = play.Embed(ctx, "openai/text-embedding-3-small", "thanks a lot")
	if err == nil || !strings.Contains(err.Error(), `step grade output: no recorded answer for this openai/text-embedding-3-small request`) ||
		!strings.Contains(err.Error(), `messages[0].content: was "thank you kindly", now "thanks a lot"`) {
		t.Fatalf("miss: %v", err)
	}
	if e.asked != 1 {
		t.Fatalf("the endpoint was asked in a replay")
	}
}

// Recording an embedding with models that reach no embeddings endpoint
// fails the request, naming why.
func TestEmbeddingRecordNeedsAnEndpoint(t *testing.T) {
	c, _ := Load(filepath.Join(t.TempDir(), "x.cassette.yaml"))
	s := NewSession(c, "x", ModeMissing, models{}, nil, nil)
	_, err := s.Embed(llm.WithCaller(context.Background(), "g"), "openai/e", "text")
	if err == nil || !strings.Contains(err.Error(), "recording needs the live embeddings endpoint") {
		t.Fatalf("err %v", err)
	}
	if c.Changed() {
		t.Fatal("a failed embedding was recorded")
	}
}
