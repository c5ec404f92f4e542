package contenox

import (
	"encoding/json"
	"testing"
)

// asJSON is v as JSON, to compare conversations by their saved form.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
