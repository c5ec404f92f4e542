package llm

import (
	"regexp"
	"slices"
	"strconv"
)

// anthropicOutputConfig is the Messages API's output_config: the answer's
// format, which the model's decoding is constrained to.
type anthropicOutputConfig struct {
	Format anthropicJSONFormat `json:"format"`
}

type anthropicJSONFormat struct {
	Type   string         `json:"type"` // json_schema
	Schema map[string]any `json:"schema"`
}

// claudeVersion reads a Claude model's family version from its name:
// claude-sonnet-4-5, claude-opus-4-6-20260101 (4.6), claude-haiku-4-5;
// claude-sonnet-4-20250514 is 4.0 (a date is no minor version).
var claudeVersion = regexp.MustCompile(`^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-|$)`)

// nativeJSON reports whether the model constrains its answer to a JSON
// Schema itself (output_config.format: Claude 4.5 and later), so that no
// forced answer tool is needed.
func nativeJSON(model string) bool {
	m := claudeVersion.FindStringSubmatch(model)
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return major > 4 || major == 4 && minor >= 5
}

// constrainable reports whether a schema is in the subset that Claude's
// constrained decoding takes: strict as OpenAI's (every object closed,
// every property required), with no numeric, length or count bounds and no
// references; any other schema goes through the forced answer tool, and
// the answer is checked after it comes in both cases.
func constrainable(schema map[string]any) bool {
	return StrictAllowed(schema) && !holdsKeyword(schema, unconstrainable)
}

// unconstrainable are the keywords Claude's structured outputs refuse.
var unconstrainable = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "maxItems", "minProperties", "maxProperties", "$ref", "$dynamicRef"}

// holdsKeyword reports whether any of keys is a member of a schema object
// anywhere in v, or minItems above 1 is.
func holdsKeyword(v any, keys []string) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			if slices.Contains(keys, k) {
				return true
			}
			if n, ok := sub.(float64); ok && k == "minItems" && n > 1 {
				return true
			}
			if n, ok := sub.(int); ok && k == "minItems" && n > 1 {
				return true
			}
			if holdsKeyword(sub, keys) {
				return true
			}
		}
	case []any:
		for _, sub := range v {
			if holdsKeyword(sub, keys) {
				return true
			}
		}
	}
	return false
}
