package chaintest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/theory/jsonpath"
	"go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/cassette"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/render"
	"github.com/chainrun/chainrun/pkg/run/response"
)

// Matcher is an expectation about one value (an output, a variable, an
// error). Written as a plain value it means equals; as a mapping of
// operators it may say equals, contains, not_contains, regex,
// json_schema, jsonpath, golden and the model-graded rubric, score and
// similar, all of which must hold.
type Matcher struct {
	set         bool
	equals      any
	hasEquals   bool
	contains    []string
	notContains []string
	regex       []*regexp.Regexp
	schema      *jsonschema.Resolved
	paths       []pathCheck
	// graded are the model-graded operators (matcher_graded.go).
	graded []*gradedOp
	// Golden is a file (relative to the test file) holding the expected
	// text; chainrun test --update writes it.
	Golden string
	line   int
}

type pathCheck struct {
	expr string
	path *jsonpath.Path
	want *Matcher
}

// plainOps are the operators whose name alone makes a mapping
// operators; matcherOps add the model-graded ones (isOps).
var (
	plainOps   = []string{"equals", "contains", "not_contains", "regex", "json_schema", "jsonpath", "golden"}
	matcherOps = append(slices.Clone(plainOps), "rubric", "score", "similar")
)

// UnmarshalYAML reads a plain value (equals) or a mapping of operators.
func (m *Matcher) UnmarshalYAML(n *yaml.Node) error {
	m.set, m.line = true, n.Line
	if n.Kind == yaml.MappingNode && !isOps(n) {
		for i := 0; i < len(n.Content); i += 2 {
			if op := chain.Closest(n.Content[i].Value, plainOps); op != "" {
				return fmt.Errorf("line %d: %s: not an operator; did you mean %s? (to expect a mapping with this key, write it under equals:)", n.Content[i].Line, n.Content[i].Value, op)
			}
		}
	}
	if n.Kind != yaml.MappingNode || !isOps(n) {
		return m.setEquals(n)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return fmt.Errorf("line %d: %s is given twice: give it a list", k.Line, k.Value)
		}
		seen[k.Value] = true
		if err := m.op(k, v); err != nil {
			return fmt.Errorf("line %d: %s: %v", k.Line, k.Value, err)
		}
	}
	return nil
}

// isOps reports whether a mapping is operators (every key is one); a
// mapping with none of them is a value to equal, and a mix is refused by
// op. score and similar are operators only with a mapping or list as
// their value, so that data such as {verdict: ok, score: 0.9} is still
// a value to equal.
func isOps(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch {
		case slices.Contains(plainOps, k), k == "rubric":
			return true
		case (k == "score" || k == "similar") && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode):
			return true
		}
	}
	return false
}

// setEquals makes the value of n the one to equal: a scalar as written
// (42 is the text 42, not a number to round), null as null, a mapping
// or list as data.
func (m *Matcher) setEquals(n *yaml.Node) error {
	var v any
	if err := n.Decode(&v); err != nil {
		return err
	}
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		v = n.Value
	}
	m.equals, m.hasEquals = jsonish(v), true
	return nil
}

func (m *Matcher) op(k, v *yaml.Node) error {
	strs := func() ([]string, error) {
		if v.Kind == yaml.ScalarNode {
			return []string{v.Value}, nil
		}
		var list []string
		err := v.Decode(&list)
		return list, err
	}
	var err error
	switch k.Value {
	case "equals":
		err = m.setEquals(v)
	case "contains":
		m.contains, err = strs()
	case "not_contains":
		m.notContains, err = strs()
	case "regex":
		var list []string
		if list, err = strs(); err == nil {
			for _, r := range list {
				re, rerr := regexp.Compile(r)
				if rerr != nil {
					return rerr
				}
				m.regex = append(m.regex, re)
			}
		}
	case "json_schema":
		var d any
		if err := v.Decode(&d); err != nil {
			return err
		}
		text, err := json.Marshal(jsonish(d))
		if err != nil {
			return err
		}
		var sch jsonschema.Schema
		if err := json.Unmarshal(text, &sch); err != nil {
			return fmt.Errorf("not a JSON Schema: %v", err)
		}
		if m.schema, err = sch.Resolve(nil); err != nil {
			return err
		}
	case "jsonpath":
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("a mapping of JSONPath expressions to what each selects")
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			expr := v.Content[i].Value
			p, err := jsonpath.Parse(expr)
			if err != nil {
				return fmt.Errorf("%s: %v", expr, err)
			}
			want := &Matcher{}
			if err := want.UnmarshalYAML(v.Content[i+1]); err != nil {
				return err
			}
			if want.Golden != "" {
				return fmt.Errorf("%s: golden compares a whole value: give it to the output, a variable or a step, not to a JSONPath", expr)
			}
			m.paths = append(m.paths, pathCheck{expr: expr, path: p, want: want})
		}
	case "rubric", "score", "similar":
		return m.addGraded(k, v)
	case "golden":
		if !filepath.IsLocal(v.Value) {
			return fmt.Errorf("%q: a golden file lies in the test file's directory or below (--update writes it)", v.Value)
		}
		m.Golden = v.Value
	default:
		return fmt.Errorf("not an operator (%s); to expect a mapping with this key, write it under equals:", strings.Join(matcherOps, ", "))
	}
	return err
}

// Set reports whether the matcher was written.
func (m *Matcher) Set() bool { return m != nil && m.set }

// Check reports how v fails the matcher (nil: it holds). golden is the
// golden file's content when the matcher has one.
func (m *Matcher) Check(v any, golden *string) error {
	_, err := m.Judge(v, golden, nil)
	return err
}

// Judge is Check that grades the model-graded operators through g (a
// matcher with some fails without one), and returns their verdict.
func (m *Matcher) Judge(v any, golden *string, g *Grading) (Verdict, error) {
	var verdict Verdict // of a graded matcher under a JSONPath
	text := render.Text(v)
	if m.hasEquals && !equal(m.equals, v) {
		return Verdict{}, fmt.Errorf("want %s, got %s", show(m.equals), show(v))
	}
	for _, c := range m.contains {
		if !strings.Contains(text, c) {
			return Verdict{}, fmt.Errorf("want it to contain %q, got %s", c, show(v))
		}
	}
	for _, c := range m.notContains {
		if strings.Contains(text, c) {
			return Verdict{}, fmt.Errorf("want it not to contain %q, got %s", c, show(v))
		}
	}
	for _, re := range m.regex {
		if !re.MatchString(text) {
			return Verdict{}, fmt.Errorf("want it to match /%s/, got %s", re, show(v))
		}
	}
	if m.schema != nil || len(m.paths) > 0 {
		doc := dataOf(v)
		if m.schema != nil {
			if err := m.schema.Validate(doc); err != nil {
				return Verdict{}, fmt.Errorf("does not hold to json_schema: %v", err)
			}
		}
		for _, p := range m.paths {
			nodes := p.path.Select(doc)
			var got any
			switch len(nodes) {
			case 0:
				return Verdict{}, fmt.Errorf("jsonpath %s selects nothing in %s", p.expr, show(v))
			case 1:
				got = nodes[0]
			default:
				got = []any(nodes)
			}
			vd, err := p.want.Judge(got, nil, g)
			verdict = verdict.and(vd)
			if err != nil {
				return verdict, fmt.Errorf("jsonpath %s: %v", p.expr, err)
			}
		}
	}
	if golden != nil && text != *golden {
		return Verdict{}, fmt.Errorf("differs from golden file %s: %s (%s test --update rewrites it)", m.Golden, firstDiff(*golden, text), response.Command())
	}
	if len(m.graded) == 0 {
		return verdict, nil
	}
	own, err := m.judgeGraded(v, g)
	return verdict.and(own), err
}

// dataOf is a value as data: a string that holds JSON is parsed.
func dataOf(v any) any {
	if s, ok := v.(string); ok {
		var d any
		if json.Unmarshal([]byte(strings.TrimSpace(s)), &d) == nil {
			return d
		}
	}
	return jsonish(v)
}

// equal compares an expected value with an actual one: text with text
// (a number or boolean compared as written), data with data (a string
// that holds JSON as its data).
func equal(want, got any) bool {
	if ws, ok := want.(string); ok {
		if ws == render.Text(got) || (isData(got) && ws == fmt.Sprint(got)) {
			return true
		}
		// JSON text against data, or against JSON text written otherwise
		if t := strings.TrimSpace(ws); t != "" && (t[0] == '{' || t[0] == '[') {
			var d any
			return json.Unmarshal([]byte(t), &d) == nil && reflect.DeepEqual(d, dataOf(got))
		}
		return false
	}
	return reflect.DeepEqual(jsonish(want), dataOf(got))
}

func isData(v any) bool {
	switch v.(type) {
	case bool, float64, int:
		return true
	}
	return false
}

// show is a value as a failure message quotes it, cut to a readable
// length.
func show(v any) string {
	s := render.Text(v)
	if _, ok := v.(string); ok || v == nil {
		s = fmt.Sprintf("%q", s)
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:197]) + "..."
	}
	return s
}

// firstDiff shows the first line where two texts part.
func firstDiff(want, got string) string {
	line, w, g := cassette.FirstDiff(want, got)
	return fmt.Sprintf("line %d: want %q, got %q", line, w, g)
}
