package chaintest

import (
	"fmt"
	"math"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/render"
)

// Verdict is what a model-graded matcher found besides holding or not:
// the grader's score (or the similarity) and its reason, for a report to
// carry. Empty for a matcher that grades nothing.
type Verdict struct {
	Score  *float64
	Reason string
}

// gradedOp is one model-graded operator of a matcher: rubric (the
// grader says whether the value meets a criterion), score (the grader
// scores it, from 0 to 1, against a threshold) or similar (the cosine
// similarity of its embedding to a reference's, against a threshold).
type gradedOp struct {
	kind string
	// text is the criterion, or similar's reference.
	text      string
	threshold *float64
	// model is the grader or the embedding model; "" takes the one of
	// config's test: block.
	model string
	line  int
}

// gradedKeys are the fields of each graded operator's mapping form.
var gradedKeys = map[string][]string{
	"rubric":  {"criterion", "grader", "threshold"},
	"score":   {"criterion", "threshold", "grader"},
	"similar": {"value", "threshold", "model"},
}

// addGraded reads a graded operator: one, or a list of them.
func (m *Matcher) addGraded(k, v *yaml.Node) error {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	for _, it := range items {
		g, err := readGraded(k.Value, it)
		if err != nil {
			return err
		}
		m.graded = append(m.graded, g)
	}
	return nil
}

// readGraded reads one graded operator: rubric as a criterion or
// {criterion, grader, threshold}; score as {criterion, threshold,
// grader}; similar as {value, threshold, model}.
func readGraded(kind string, n *yaml.Node) (*gradedOp, error) {
	g := &gradedOp{kind: kind, line: n.Line}
	if kind == "rubric" && n.Kind == yaml.ScalarNode {
		g.text = strings.TrimSpace(n.Value)
		if g.text == "" {
			return nil, fmt.Errorf("an empty criterion grades nothing")
		}
		return g, nil
	}
	keys := gradedKeys[kind]
	if err := knownKeys(n, kind, keys); err != nil {
		return nil, unline(err)
	}
	textKey := keys[0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i].Value, n.Content[i+1]
		switch key {
		case "threshold":
			t, err := threshold(val)
			if err != nil {
				return nil, err
			}
			g.threshold = &t
		case "grader", "model":
			if val.Kind != yaml.ScalarNode || val.Value == "" {
				return nil, fmt.Errorf("%s is a model name", key)
			}
			g.model = val.Value
		default:
			g.text = strings.TrimSpace(val.Value)
			if val.Kind != yaml.ScalarNode {
				var d any
				if err := val.Decode(&d); err != nil {
					return nil, err
				}
				g.text = render.Text(jsonish(d))
			}
		}
	}
	switch {
	case g.text == "":
		return nil, fmt.Errorf("%s needs %s: %s", kind, textKey, map[string]string{"criterion": "what the value must meet, in words", "value": "the reference answer to compare with"}[textKey])
	case g.threshold == nil && kind != "rubric":
		return nil, fmt.Errorf("%s needs threshold: a number from 0 to 1 (%s)", kind, map[string]string{"score": "the lowest score that passes", "similar": "the lowest cosine similarity that passes, e.g. 0.8"}[kind])
	}
	return g, nil
}

// threshold reads a number from 0 to 1.
func threshold(n *yaml.Node) (float64, error) {
	var t float64
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&t) != nil {
		return 0, fmt.Errorf("threshold %q is not a number: give one from 0 to 1", n.Value)
	}
	if t < 0 || t > 1 || math.IsNaN(t) {
		return 0, fmt.Errorf("threshold %s is outside 0..1", n.Value)
	}
	return t, nil
}

// unline drops knownKeys' "line N: " prefix: the operator's line leads
// the message already.
func unline(err error) error {
	if m := atLine().FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("%s", m[2])
	}
	return err
}

// judgeGraded grades v by each graded operator, in order, up to the
// first that fails; the verdict holds every grading's score and reason
// (Verdict.and).
func (m *Matcher) judgeGraded(v any, g *Grading) (Verdict, error) {
	var all Verdict
	for _, op := range m.graded {
		if g == nil {
			return Verdict{}, fmt.Errorf("%s: a model-graded matcher is judged by chainrun test, which grades through the case's cassette", op.kind)
		}
		verdict, err := g.grade(op, v)
		if len(m.graded) > 1 && verdict.Reason != "" {
			verdict.Reason = op.kind + ": " + verdict.Reason
		}
		all = all.and(verdict)
		if err != nil {
			return all, err
		}
	}
	return all, nil
}

// and is the verdict of two gradings of one value together: the lower
// score (the one that decides whether the matcher holds) and both
// reasons, so that a matcher with several graded operators, or a graded
// matcher under several JSONPaths, keeps every grader's word.
func (v Verdict) and(o Verdict) Verdict {
	switch {
	case v.Score == nil && v.Reason == "":
		return o
	case o.Score == nil && o.Reason == "":
		return v
	}
	out := v
	if o.Score != nil && (out.Score == nil || *o.Score < *out.Score) {
		out.Score = o.Score
	}
	if o.Reason != "" {
		if out.Reason != "" {
			out.Reason += "; "
		}
		out.Reason += o.Reason
	}
	return out
}
