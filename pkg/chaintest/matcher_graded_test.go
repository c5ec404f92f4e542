package chaintest

import (
	"math"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// Each model-graded operator is read in its forms, and each bad one is
// refused naming the line and what to write.
func TestGradedOperatorsRead(t *testing.T) {
	for _, tc := range []struct {
		text, err string
		kinds     []string
	}{
		{"rubric: is polite", "", []string{"rubric"}},
		{"rubric: [is polite, names the user]", "", []string{"rubric", "rubric"}},
		{"rubric: {criterion: is polite, grader: openai/gpt-4o, threshold: 0.7}", "", []string{"rubric"}},
		{"score: {criterion: is polite, threshold: 0.5}", "", []string{"score"}},
		{"similar: {value: {a: 1}, threshold: 1, model: ollama/nomic-embed-text}", "", []string{"similar"}},
		{"{contains: hi, rubric: is polite}", "", []string{"rubric"}},
		{"rubric: ''", "line 1: rubric: an empty criterion grades nothing", nil},
		{"score: {criterion: x, threshold: 1.01}", "line 1: score: threshold 1.01 is outside 0..1", nil},
		{"score: {criterion: x, threshold: -0.1}", "threshold -0.1 is outside 0..1", nil},
		{"similar: {value: x, threshold: .nan}", "threshold .nan is outside 0..1", nil},
		{"score: {criterion: x}", "score needs threshold", nil},
		{"similar: {threshold: 0.5}", "similar needs value", nil},
		{"score: {criterion: x, threshold: 0.5, model: m}", `score has no field "model"`, nil},
		{"similar: {value: x, threshold: 0.5, grader: m}", `similar has no field "grader"`, nil},
		{"rubric: {criterion: x, grader: [a]}", "grader is a model name", nil},
		{"{verdict: ok, rubric: x}", "verdict: not an operator", nil},
	} {
		var m Matcher
		err := yaml.Unmarshal([]byte(tc.text), &m)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.text, err)
			continue
		}
		var kinds []string
		for _, g := range m.gradedOps() {
			kinds = append(kinds, g.kind)
		}
		if strings.Join(kinds, ",") != strings.Join(tc.kinds, ",") {
			t.Errorf("%s: operators %v, want %v", tc.text, kinds, tc.kinds)
		}
	}
}

// Data whose keys are score or similar with plain values is still a
// value to equal, as before those operators were.
func TestDataWithGradedNamesIsAValue(t *testing.T) {
	for _, text := range []string{"{verdict: ok, score: 0.9}", "{score: 0.9}", "{similar: text, x: 1}"} {
		m := matcher(t, text)
		if !m.hasEquals || len(m.graded) > 0 {
			t.Errorf("%s: read as operators", text)
		}
	}
	m := matcher(t, "{verdict: ok, score: 0.9}")
	if err := m.Check(`{"verdict": "ok", "score": 0.9}`, nil); err != nil {
		t.Error(err)
	}
}

// Without a grading (outside chainrun test) a graded matcher fails,
// saying why, instead of passing unjudged.
func TestGradedWithoutGradingFails(t *testing.T) {
	err := matcher(t, "rubric: polite").Check("hi", nil)
	if err == nil || !strings.Contains(err.Error(), "judged by chainrun test") {
		t.Fatalf("err %v", err)
	}
}

func TestCosine(t *testing.T) {
	for _, tc := range []struct {
		a, b []float64
		want float64
		err  bool
	}{
		{[]float64{1, 0}, []float64{1, 0}, 1, false},
		{[]float64{1, 0}, []float64{0, 3}, 0, false},
		{[]float64{1, 1}, []float64{-1, -1}, -1, false},
		{[]float64{0, 0}, []float64{1, 1}, 0, false},
		{[]float64{1}, []float64{1, 2}, 0, true},
	} {
		got, err := cosine(tc.a, tc.b)
		if (err != nil) != tc.err || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("cosine(%v, %v) = %v, %v", tc.a, tc.b, got, err)
		}
	}
}

// A grader's answer is read from its JSON, alone or fenced; one without
// pass or score, or with a score outside 0..1, is refused.
func TestReadGrade(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{`{"pass": true, "score": 0.8, "reason": "fine"}`, true},
		{"```json\n{\"pass\": false, \"score\": 0, \"reason\": \"no\"}\n```", true},
		{`{"score": 0.8, "reason": "fine"}`, false},
		{`{"pass": true, "reason": "fine"}`, false},
		{`{"pass": true, "score": 7, "reason": "fine"}`, false},
		{`looks good`, false},
	} {
		if _, err := readGrade(tc.text); (err == nil) != tc.ok {
			t.Errorf("%q: %v", tc.text, err)
		}
	}
}

func TestReadSettings(t *testing.T) {
	s, err := ReadSettings(map[string]any{"grader": "openai/gpt-4o-mini", "embedding_model": "ollama/nomic-embed-text"})
	if err != nil || s.Grader != "openai/gpt-4o-mini" || s.EmbeddingModel != "ollama/nomic-embed-text" {
		t.Fatalf("%+v %v", s, err)
	}
	for v, want := range map[any]string{"x": "is a mapping", 1: "is a mapping"} {
		if _, err := ReadSettings(v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v", v, err)
		}
	}
	for _, m := range []map[string]any{{"graders": "x"}, {"grader": 3}, {"grader": ""}} {
		if _, err := ReadSettings(m); err == nil || !strings.Contains(err.Error(), "config test.") {
			t.Errorf("%v: %v", m, err)
		}
	}
}

// Two gradings of one value together keep the lower score and both
// reasons; an empty verdict adds nothing.
func TestVerdictsTogether(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name   string
		a, b   Verdict
		score  *float64
		reason string
	}{
		{"empty and one", Verdict{}, Verdict{Score: f(0.5), Reason: "b"}, f(0.5), "b"},
		{"one and empty", Verdict{Score: f(0.5), Reason: "a"}, Verdict{}, f(0.5), "a"},
		{"the lower score wins", Verdict{Score: f(0.9), Reason: "a"}, Verdict{Score: f(0.2), Reason: "b"}, f(0.2), "a; b"},
		{"the lower score stays", Verdict{Score: f(0.2), Reason: "a"}, Verdict{Score: f(0.9), Reason: "b"}, f(0.2), "a; b"},
		{"a reason without a score", Verdict{Reason: "a"}, Verdict{Score: f(0.7)}, f(0.7), "a"},
	} {
		got := tc.a.and(tc.b)
		if (got.Score == nil) != (tc.score == nil) || got.Score != nil && *got.Score != *tc.score || got.Reason != tc.reason {
			t.Errorf("%s: got %v %q", tc.name, got.Score, got.Reason)
		}
	}
}
