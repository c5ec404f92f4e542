package run

import (
	"bytes"
	"encoding/json"
	"strings"
)

// inputsJSON is the run's inputs as one JSON object, as OCC's pipeline
// gives {input} to its chains (JSON.stringify of its inputs: compact,
// nothing escaped but what JSON must); the keys in name order.
func (s *Values) inputsJSON() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s.inputs); err != nil {
		return "{}"
	}
	return strings.TrimSuffix(b.String(), "\n")
}
