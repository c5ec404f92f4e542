package guard

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// Violation is one rule an output broke, worded so it can be shown to a
// user and, on a retry, to the model that produced the output.
type Violation struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Error joins violations into one error; nil when there are none.
func Error(vs []Violation) error {
	if len(vs) == 0 {
		return nil
	}
	msgs := make([]string, len(vs))
	for i, v := range vs {
		msgs[i] = v.Message
	}
	return &ViolationError{Violations: vs, text: "guardrail failed: " + strings.Join(msgs, "; ")}
}

// ViolationError is a step output that broke its guardrails.
type ViolationError struct {
	Violations []Violation
	text       string
}

func (e *ViolationError) Error() string { return e.text }

// Rule is one compiled check on an output. Type names it in messages
// (min_length, output_schema, …); Value is its argument; Pattern and
// Schema are set for regex_match and json_schema.
type Rule struct {
	Type    string
	Value   any
	Pattern *regexp.Regexp
	Schema  *jsonschema.Resolved
}

// Check returns every rule that output breaks, in the rules' order.
func Check(rules []Rule, output string) []Violation {
	var out []Violation
	add := func(rule, format string, args ...any) {
		out = append(out, Violation{Rule: rule, Message: rule + ": " + fmt.Sprintf(format, args...)})
	}
	length := utf8.RuneCountInString(output)
	for _, g := range rules {
		switch g.Type {
		case "min_length":
			if n := toInt(g.Value); length < n {
				add(g.Type, "output is %d characters, fewer than %d", length, n)
			}
		case "max_length", "output_max_length":
			if n := toInt(g.Value); length > n {
				add(g.Type, "output is %d characters, more than %d", length, n)
			}
		case "must_contain", "output_must_contain":
			if v := fmt.Sprint(g.Value); !strings.Contains(output, v) {
				add(g.Type, "output does not contain %q", v)
			}
		case "must_not_contain", "output_must_not_contain":
			if v := fmt.Sprint(g.Value); strings.Contains(output, v) {
				add(g.Type, "output contains %q", v)
			}
		case "regex_match":
			if re := g.Pattern; re != nil && !re.MatchString(output) {
				add(g.Type, "output does not match %s", re.String())
			}
		case "json_valid":
			if !json.Valid([]byte(strings.TrimSpace(output))) {
				add(g.Type, "output is not valid JSON")
			}
		case "output_schema":
			if !json.Valid([]byte(strings.TrimSpace(output))) {
				add(g.Type, "output is not valid JSON (output_schema: json)")
			}
		case "json_schema":
			if g.Schema == nil {
				continue
			}
			var doc any
			if err := json.Unmarshal([]byte(JSONText(output)), &doc); err != nil {
				add(g.Type, "output is not valid JSON")
				continue
			}
			if err := g.Schema.Validate(doc); err != nil {
				add(g.Type, "output does not match the schema: %s", SchemaProblem(err))
			}
		}
	}
	return out
}

// JSONText is the output with the code fences models like to add around
// JSON removed: the one rule for reading a model's JSON answer.
func JSONText(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(strings.TrimPrefix(t, "```json"), "```")
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
	}
	return t
}

// SchemaProblem words a schema validation error in one line, with the
// numbers of a bound as a person writes them (12, not 12/1; 10, not
// 10.000000).
func SchemaProblem(err error) string {
	msg := strings.TrimPrefix(err.Error(), "validating root: ")
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return boundNumbers().ReplaceAllStringFunc(msg, func(m string) string {
		p := boundNumbers().FindStringSubmatch(m)
		return p[1] + ": " + plainNumber(p[2]) + " " + p[3] + " " + plainNumber(p[4])
	})
}

// boundNumbers is a bound's message as the schema validator words it:
// the value as a fraction, the bound with six decimals. It is compiled
// on first use: only a refused value's message needs it.
var boundNumbers = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf): (-?\d+(?:/\d+)?) (is (?:less than|greater than|not a multiple of)(?: or equal to)?) (-?\d+(?:\.\d+)?)`)
})

// plainNumber writes a number of a bound's message (12/1, 3/4,
// 10.000000) as a person would (12, 0.75, 10).
func plainNumber(n string) string {
	r, ok := new(big.Rat).SetString(n)
	if !ok {
		return n
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func toInt(x any) int {
	switch n := x.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}
