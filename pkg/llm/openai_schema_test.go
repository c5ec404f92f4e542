package llm_test

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// chatRequestSchema is OpenAI's CreateChatCompletionRequest from the
// official OpenAPI document (testdata/openai, with its attribution),
// its component references made JSON Schema $defs.
var chatRequestSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	data, err := os.ReadFile("testdata/openai/openai_chat_schemas.json")
	if err != nil {
		return nil, err
	}
	text := strings.ReplaceAll(string(data), `"#/components/schemas/`, `"#/$defs/`)
	var doc struct {
		Components struct {
			Schemas map[string]*jsonschema.Schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	root := &jsonschema.Schema{Ref: "#/$defs/CreateChatCompletionRequest", Defs: doc.Components.Schemas}
	return root.Resolve(nil)
})

// checkOpenAIBody fails t unless body is a request OpenAI's schema takes.
func checkOpenAIBody(t *testing.T, body map[string]any) {
	t.Helper()
	rs, err := chatRequestSchema()
	if err != nil {
		t.Fatalf("the schema: %v", err)
	}
	if err := rs.Validate(body); err != nil {
		b, _ := json.Marshal(body)
		t.Errorf("OpenAI's schema refuses the request: %v\n%s", err, b)
	}
}

// TestTheSchemaCheckRefuses: the check is not a stub: bodies OpenAI's
// schema refuses are refused.
func TestTheSchemaCheckRefuses(t *testing.T) {
	rs, err := chatRequestSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{"model":"m"}`,
		`{"model":"m","messages":[]}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":"hot"}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"xml"}}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"frequency_penalty":3}`,
	} {
		var body map[string]any
		json.Unmarshal([]byte(bad), &body)
		if rs.Validate(body) == nil {
			t.Errorf("the schema took %s", bad)
		}
	}
}
