package wfyaml

import (
	"reflect"
	"testing"

	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// TestEveryKeyIsDocumented keeps the schema's descriptions of a
// workflows: file's keys in step with the Go types: a new key without a
// description fails here (pkg/chain's TestEveryFieldIsDocumented holds
// the model's own).
func TestEveryKeyIsDocumented(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[WorkflowFileKeys](), reflect.TypeFor[WorkflowKeys](), reflect.TypeFor[WorkflowAgentKeys]()} {
		for _, f := range yamlpos.FieldsOf(typ).List {
			if f.Doc() == "" {
				t.Errorf("%s.%s has no doc tag", typ.Name(), f.Key)
			}
		}
	}
}
