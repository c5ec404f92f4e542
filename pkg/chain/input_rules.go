package chain

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// InputRules are what OCC's typed inputs add to an input: rules a value
// given for it must keep (checked before anything runs, as OCC's executor
// checks them), and the hints OCC's input form shows, which chainrun
// reads and does not use.
type InputRules struct {
	Pattern   string   `yaml:"pattern" doc:"A regular expression (Go syntax) the value must match somewhere (anchor it with ^…$ to match the whole); another value is refused before the run starts."`
	MinLength *int     `yaml:"min_length" doc:"The fewest characters the value may have."`
	MaxLength *int     `yaml:"max_length" doc:"The most characters the value may have."`
	Min       *float64 `yaml:"min" doc:"number or integer: the least value."`
	Max       *float64 `yaml:"max" doc:"number or integer: the greatest value."`
	// OCC's form hints: read, never used by a run.
	Placeholder string            `yaml:"placeholder" doc:"OCC's input form hint; chainrun shows it nowhere."`
	Examples    []string          `yaml:"examples" doc:"OCC's input form hint: example values; chainrun shows them nowhere."`
	EnumLabels  map[string]string `yaml:"enum_labels" doc:"OCC's input form hint: a label per enum value; chainrun shows them nowhere."`
	Accepts     []string          `yaml:"accepts" doc:"OCC's upload form hint for a file or image input (MIME types, extensions); chainrun takes a path and does not check it."`
	MaxFileSize int64             `yaml:"max_file_size" doc:"OCC's upload form hint for a file or image input (bytes); chainrun does not check it."`

	pattern *regexp.Regexp
}

// formInputTypes are the input types of an input form beyond JSON
// Schema's, as OCC's typed inputs declare them: enum (text,
// one of enum:), text (any text), json (any JSON), file and image (a
// path).
var formInputTypes = []string{"enum", "text", "json", "file", "image"}

// CheckRules reports why text breaks one of the input's rules (pattern,
// min_length, max_length, min, max), nil when it keeps them all. The
// messages say what OCC's executor says.
func (in *Input) CheckRules(text string) error {
	n := utf8.RuneCountInString(text)
	switch {
	case in.MinLength != nil && n < *in.MinLength:
		return fmt.Errorf("%q must be at least %d characters (it has %d)", text, *in.MinLength, n)
	case in.MaxLength != nil && n > *in.MaxLength:
		return fmt.Errorf("must be at most %d characters (it has %d)", *in.MaxLength, n)
	case in.pattern != nil && !in.pattern.MatchString(text):
		return fmt.Errorf("%q does not match pattern %s", text, in.Pattern)
	}
	if in.Min == nil && in.Max == nil {
		return nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return fmt.Errorf("%q must be a number (min and max are set)", text)
	case in.Min != nil && f < *in.Min:
		return fmt.Errorf("%s must be >= %s", strings.TrimSpace(text), num(*in.Min))
	case in.Max != nil && f > *in.Max:
		return fmt.Errorf("%s must be <= %s", strings.TrimSpace(text), num(*in.Max))
	}
	return nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// inputRules checks an input's rules when the chain loads: a pattern
// that compiles, bounds in order, an enum type with its values, and a
// default that keeps them.
func (v *validator) inputRules(in *Input) {
	if in.Pattern != "" {
		re, err := regexp.Compile(in.Pattern)
		if err != nil {
			v.d.Errorf(in.Pos, "input %q: pattern: %v", in.Name, err)
			return
		}
		in.pattern = re
	}
	switch {
	case in.MinLength != nil && *in.MinLength < 0, in.MaxLength != nil && *in.MaxLength < 0:
		v.d.Errorf(in.Pos, "input %q: min_length and max_length cannot be negative", in.Name)
	case in.MinLength != nil && in.MaxLength != nil && *in.MinLength > *in.MaxLength:
		v.d.Errorf(in.Pos, "input %q: min_length %d is more than max_length %d", in.Name, *in.MinLength, *in.MaxLength)
	case in.Min != nil && in.Max != nil && *in.Min > *in.Max:
		v.d.Errorf(in.Pos, "input %q: min %s is more than max %s", in.Name, num(*in.Min), num(*in.Max))
	case in.Type == "enum" && len(in.Enum) == 0:
		v.d.Errorf(in.Pos, "input %q: type enum needs enum:, the values it may take", in.Name)
	case in.Default != nil && in.CheckRules(*in.Default) != nil:
		v.d.Errorf(in.Pos, "input %q: default: %v", in.Name, in.CheckRules(*in.Default))
	}
}
