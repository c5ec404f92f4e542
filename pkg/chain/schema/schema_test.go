package schema_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/chainrun/chainrun/pkg/builtin" // every kind, whose keys the schema lists
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/schema"
	"github.com/google/jsonschema-go/jsonschema"
	yaml "go.yaml.in/yaml/v4"
)

func resolvedSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	rs, err := schema.ResolvedSchema()
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
	b, err := json.Marshal(chain.NormalizeYAML(v))
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
	files, _ := filepath.Glob("../../../chains/*.yaml")
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

// TestHandlersSchema: editors are told what handlers take: a step or a
// list of steps under the four names, and nothing else.
func TestHandlersSchema(t *testing.T) {
	rs := resolvedSchema(t)
	base := "name: c\nsteps: [{id: a, type: noop}]\ndotenv: [.env, {path: .env.local, required: false}]\nhandlers:\n"
	for src, valid := range map[string]bool{
		"  on_exit: {type: cli, run: 'echo {run.status}'}\n":                        true,
		"  on_failure: [{type: noop}, {id: b, type: cli, command: x}]\n":            true,
		"  on_exit: {type: cli, run: x, colour: red}\n":                             false,
		"  on_exit: {type: noop, depends_on: [a]}\n":                                false,
		"  on_exitt: {type: noop}\n":                                                false,
		"  on_exit: []\n":                                                           false,
		"  on_success: {type: noop}\n  on_cancel: [{type: transform, expr: '1'}]\n": true,
	} {
		err := rs.Validate(yamlDoc(t, []byte(base+src)))
		if (err == nil) != valid {
			t.Errorf("%s: valid %v, schema says %v", src, valid, err)
		}
	}
}
