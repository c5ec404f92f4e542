package chaintest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/render"
)

// Grading is what a case's model-graded matchers ask through: the case's
// cassette session (a grading is recorded and played back as a step's
// model answer is, under the asker "grade WHAT"), and the grader and
// embedding model config names when a matcher names none.
type Grading struct {
	ctx      context.Context
	session  *cassette.Session
	settings Settings
	// at is what is being checked (output, steps.ID.output, vars.NAME).
	at string
}

// For is the grading of the value at what.
func (g *Grading) For(what string) *Grading {
	if g == nil {
		return nil
	}
	c := *g
	c.at = what
	return &c
}

// graderAnswer is the shape a grader answers in, promptfoo's
// llm-rubric's: whether the value passes, a score from 0 to 1, and why.
type graderAnswer struct {
	Pass   *bool    `json:"pass"`
	Score  *float64 `json:"score"`
	Reason string   `json:"reason"`
}

// graderSchema asks for a graderAnswer with structured output (strict:
// every property required, no other).
var graderSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"pass":   map[string]any{"type": "boolean"},
		"score":  map[string]any{"type": "number"},
		"reason": map[string]any{"type": "string"},
	},
	"required":             []any{"pass", "score", "reason"},
	"additionalProperties": false,
}

// graderSystem tells the grader its task and its answer's shape.
const graderSystem = "You grade an output against a rubric. Read the output, judge whether it meets the rubric, " +
	"and answer with JSON only: {\"pass\": true or false, \"score\": a number from 0 (does not meet it at all) to 1 (meets it fully), " +
	"\"reason\": one or two sentences on why}."

// grade judges v by one graded operator.
func (g *Grading) grade(op *gradedOp, v any) (Verdict, error) {
	text := render.Text(v)
	ctx := llm.WithCaller(g.ctx, "grade "+g.at)
	if op.kind == "similar" {
		return g.similar(ctx, op, v, text)
	}
	model := op.model
	if model == "" {
		model = g.settings.Grader
	}
	label := fmt.Sprintf("%s %q", op.kind, clipText(op.text))
	t, err := g.session.Target(model)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: grader %s: %v", label, model, err)
	}
	zero := 0.0
	resp, err := t.Provider.Complete(ctx, llm.Request{Model: t.Model, System: graderSystem, Temperature: &zero, MaxTokens: 1024,
		Messages: []llm.Message{{Role: llm.User, Content: "<output>\n" + text + "\n</output>\n\n<rubric>\n" + op.text + "\n</rubric>"}},
		Format:   &llm.ResponseFormat{Name: "grading", Schema: graderSchema, Strict: true}})
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: the grading by %s failed: %v", label, model, err)
	}
	ans, err := readGrade(resp.Text)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: the grader %s answered %q, not {\"pass\": bool, \"score\": number, \"reason\": text}: %v", label, model, clipText(resp.Text), err)
	}
	verdict := Verdict{Score: ans.Score, Reason: ans.Reason}
	score := *ans.Score
	switch {
	case op.kind == "score" && score < *op.threshold:
		return verdict, fmt.Errorf("%s: want a score of at least %g, the grader %s gave %g: %s; got %s", label, *op.threshold, model, score, ans.Reason, show(v))
	case op.kind == "rubric" && !*ans.Pass:
		return verdict, fmt.Errorf("%s: the grader %s says it does not hold (score %g): %s; got %s", label, model, score, ans.Reason, show(v))
	case op.kind == "rubric" && op.threshold != nil && score < *op.threshold:
		return verdict, fmt.Errorf("%s: the grader %s passed it with a score of %g, under the threshold %g: %s; got %s", label, model, score, *op.threshold, ans.Reason, show(v))
	}
	return verdict, nil
}

// readGrade reads a grader's answer: the JSON object, alone or in a
// fenced block, with a score from 0 to 1.
func readGrade(text string) (graderAnswer, error) {
	var ans graderAnswer
	t := strings.TrimSpace(text)
	if i, j := strings.Index(t, "{"), strings.LastIndex(t, "}"); i >= 0 && j > i {
		t = t[i : j+1]
	}
	if err := json.Unmarshal([]byte(t), &ans); err != nil {
		return ans, err
	}
	switch {
	case ans.Pass == nil:
		return ans, fmt.Errorf("no pass")
	case ans.Score == nil:
		return ans, fmt.Errorf("no score")
	case *ans.Score < 0 || *ans.Score > 1:
		return ans, fmt.Errorf("score %g is outside 0..1", *ans.Score)
	}
	return ans, nil
}

// similar compares the embedding of v's text with the reference's.
func (g *Grading) similar(ctx context.Context, op *gradedOp, v any, text string) (Verdict, error) {
	model := op.model
	if model == "" {
		model = g.settings.EmbeddingModel
	}
	label := fmt.Sprintf("similar to %q", clipText(op.text))
	ref, err := g.session.Embed(ctx, model, op.text)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: embedding the reference with %s failed: %v", label, model, err)
	}
	got, err := g.session.Embed(ctx, model, text)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: embedding the value with %s failed: %v", label, model, err)
	}
	cos, err := cosine(ref, got)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: %v", label, err)
	}
	verdict := Verdict{Score: &cos, Reason: fmt.Sprintf("cosine similarity %.3f to the reference by %s", cos, model)}
	if cos < *op.threshold {
		return verdict, fmt.Errorf("%s: cosine similarity %.3f by %s, under the threshold %g; got %s", label, cos, model, *op.threshold, show(v))
	}
	return verdict, nil
}

// cosine is the cosine similarity of two vectors of one length.
func cosine(a, b []float64) (float64, error) {
	if len(a) != len(b) || len(a) == 0 {
		return 0, fmt.Errorf("the embeddings have %d and %d dimensions: not comparable", len(a), len(b))
	}
	var dot, na, nb float64
	for i := range a {
		dot, na, nb = dot+a[i]*b[i], na+a[i]*a[i], nb+b[i]*b[i]
	}
	if na == 0 || nb == 0 {
		return 0, nil
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb)), nil
}

// clipText cuts a criterion or answer to a readable length.
func clipText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
