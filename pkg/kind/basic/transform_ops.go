package basic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/chainrun/chainrun/pkg/run"
)

// operation runs one of OCC's transform operations over the text of the
// step's input_var (else its rendered prompt).
func operation(a *run.Attempt) (run.Outcome, error) {
	s := a.Step()
	c := s.C()
	fail := func(format string, args ...any) (run.Outcome, error) {
		return run.Outcome{}, run.Permanent(fmt.Errorf(Transform(s).Operation+": "+format, args...))
	}
	var in interp.Value
	switch {
	case c.InputVar != nil:
		v, err := a.List(c.InputVar, "input_var")
		if err != nil {
			return run.Outcome{}, err
		}
		in = v
	case c.Prompt != nil:
		text, err := a.Render(c.Prompt)
		if err != nil {
			return run.Outcome{}, err
		}
		in = interp.TextValue(text)
	}
	lines := func() []string {
		var out []string
		for _, l := range strings.Split(in.Text, "\n") {
			if l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	switch Transform(s).Operation {
	case OpJSONExtract:
		d, err := jsonOf(in)
		if err != nil && s.Reading().JSONErrorIsOutput {
			// OCC's executor writes the error into the output and goes on
			a.Warn(fmt.Sprintf("step %q: json_extract: %s is not JSON: the output is OCC's error text (chainrun's own format fails the step)", s.ID, inputName(s)))
			return text(fmt.Sprintf("[JSON parse error: %v]", err))
		}
		if err != nil {
			return fail("%s is not JSON: %v", inputName(s), err)
		}
		got, err := interp.SelectDotted(d, Transform(s).JSONPath)
		if err != nil {
			return fail("json_path %s: %v", Transform(s).JSONPath, err)
		}
		return run.Outcome{Value: interp.DataValue(got)}, nil
	case OpRegexMatch:
		return text(strings.Join(Pattern(s).FindAllString(in.Text, -1), "\n"))
	case OpTemplate:
		out, err := a.Render(c.TemplateStr)
		if err != nil {
			return run.Outcome{}, err
		}
		return text(out)
	case OpSplit, OpToJSON:
		list := []any{}
		for _, l := range lines() {
			list = append(list, l)
		}
		return run.Outcome{Value: interp.DataValue(list)}, nil
	case OpMerge:
		return text(run.Concatenated(run.MergeValues(s, a.ValueOf)))
	case OpTruncate:
		limit := Transform(s).TruncateLimit
		if limit == 0 {
			limit = 5000
		}
		return text(run.CutMarked(in.Text, limit))
	case OpReplace:
		if Transform(s).Regex == "" {
			return text(in.Text) // OCC's: no pattern, nothing replaced
		}
		return text(Pattern(s).ReplaceAllString(in.Text, Transform(s).TemplateStr))
	case OpFilter:
		var keep []string
		for _, l := range strings.Split(in.Text, "\n") {
			if Pattern(s).MatchString(l) {
				keep = append(keep, l)
			}
		}
		return text(strings.Join(keep, "\n"))
	case OpMap:
		var out []string
		for i, l := range lines() {
			line, err := a.With("item", interp.TextValue(l)).With("index", interp.DataValue(float64(i))).Render(c.TemplateStr)
			if err != nil {
				return run.Outcome{}, err
			}
			out = append(out, line)
		}
		return text(strings.Join(out, "\n"))
	case OpJoin:
		sep := Transform(s).TemplateStr
		if _, set := s.FieldPos["template_str"]; !set {
			sep = "\n"
		}
		list, ok := in.Data.([]any)
		if !ok {
			return text(in.Text)
		}
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = interp.DataValue(e).Text
		}
		return text(strings.Join(parts, sep))
	case OpFromJSON:
		return text(readable(in))
	case OpPassThrough:
		return run.Outcome{Value: in}, nil
	}
	return fail("unknown operation")
}

func text(s string) (run.Outcome, error) { return run.Outcome{Value: interp.TextValue(s)}, nil }

// inputName says what a transform operation read, for messages.
func inputName(s *chain.Step) string {
	if s.InputVar().InputVar != "" {
		return "input_var " + s.InputVar().InputVar
	}
	return "the prompt"
}

// jsonOf is a value's JSON: its data, else its text, without the ```
// fence a model often writes around it.
func jsonOf(v interp.Value) (any, error) {
	if v.Data != nil {
		return v.Data, nil
	}
	t := strings.TrimSpace(v.Text)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t[3:], "json")
		t = strings.TrimSuffix(strings.TrimSpace(t), "```")
	}
	var d any
	err := json.Unmarshal([]byte(t), &d)
	return d, err
}

// readable is OCC's from_json: a list one item per line, an object one
// "key: value" line per field in the order written, else the text.
func readable(v interp.Value) string {
	t := strings.TrimSpace(v.Text)
	d, err := jsonOf(interp.Value{Text: t})
	if err != nil {
		return v.Text
	}
	switch x := d.(type) {
	case []any:
		lines := make([]string, len(x))
		for i, e := range x {
			lines[i] = interp.DataValue(e).Text
		}
		return strings.Join(lines, "\n")
	case map[string]any:
		var lines []string
		for _, k := range keysInOrder(t) {
			lines = append(lines, k+": "+interp.DataValue(x[k]).Text)
		}
		return strings.Join(lines, "\n")
	}
	return interp.DataValue(d).Text
}

// keysInOrder are a JSON object's keys as written.
func keysInOrder(text string) []string {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, fmt.Sprint(k))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}
