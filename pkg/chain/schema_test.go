package chain

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/yamlpos"
	"github.com/google/jsonschema-go/jsonschema"
	yaml "go.yaml.in/yaml/v4"
)

// TestEveryFieldIsDocumented keeps the schema's descriptions in step with
// the Go types: a new field without a description fails here.
func TestEveryFieldIsDocumented(t *testing.T) {
	for _, typ := range append(stepParts(),
		reflect.TypeFor[Chain](), reflect.TypeFor[Input](), reflect.TypeFor[Retry](),
		reflect.TypeFor[Cache](), reflect.TypeFor[Guardrail](), reflect.TypeFor[PreTool](), reflect.TypeFor[Budget](),
		reflect.TypeFor[Completion](), reflect.TypeFor[ToolDef](), reflect.TypeFor[workflowFile](), reflect.TypeFor[workflowKeys](),
		reflect.TypeFor[workflowAgent](), reflect.TypeFor[State](), reflect.TypeFor[Transition](), reflect.TypeFor[Branch](),
		reflect.TypeFor[Compose](), reflect.TypeFor[Handlers](), reflect.TypeFor[DotenvFile](),
	) {
		for _, f := range yamlpos.FieldsOf(typ).List {
			if f.Doc() == "" {
				t.Errorf("%s.%s has no doc tag", typ.Name(), f.Key)
			}
		}
	}
}

func resolvedSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	rs, err := ResolvedSchema()
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func yamlDoc(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Load(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(NormalizeYAML(v))
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

// TestSchemaAcceptsBundledChains proves the schema against real files.
func TestSchemaAcceptsBundledChains(t *testing.T) {
	rs := resolvedSchema(t)
	files, _ := filepath.Glob("../../chains/*.yaml")
	if len(files) == 0 {
		t.Fatal("no bundled chains found")
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".test.yaml") || strings.HasSuffix(f, ".cassette.yaml") {
			continue // a chain's tests and recordings, not a chain
		}
		data, _ := os.ReadFile(f)
		if err := rs.Validate(yamlDoc(t, data)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, bad := range []string{
		"name: x\nsteps: []\n",
		"name: x\nstep: []\n",
		"name: x\nsteps: [{id: a, type: telepathy}]\n",
		"name: x\nsteps: [{id: a, retry: {max: 2, dely: 1}}]\n",
		"steps: [{id: a}]\n",
	} {
		if rs.Validate(yamlDoc(t, []byte(bad))) == nil {
			t.Errorf("the schema accepts a broken chain: %q", bad)
		}
	}
}
