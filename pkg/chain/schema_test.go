package chain

import (
	"reflect"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain/envfiles"
	"github.com/chainrun/chainrun/pkg/yamlpos"
)

// TestEveryFieldIsDocumented keeps the schema's descriptions in step with
// the Go types: a new field without a description fails here.
func TestEveryFieldIsDocumented(t *testing.T) {
	for _, typ := range append(stepParts(),
		reflect.TypeFor[Chain](), reflect.TypeFor[Input](), reflect.TypeFor[Retry](),
		reflect.TypeFor[Cache](), reflect.TypeFor[Guardrail](), reflect.TypeFor[PreTool](), reflect.TypeFor[Budget](),
		reflect.TypeFor[Completion](), reflect.TypeFor[ToolDef](),
		reflect.TypeFor[State](), reflect.TypeFor[Transition](), reflect.TypeFor[Branch](),
		reflect.TypeFor[Compose](), reflect.TypeFor[Handlers](), reflect.TypeFor[envfiles.File](),
	) {
		for _, f := range yamlpos.FieldsOf(typ).List {
			if f.Doc() == "" {
				t.Errorf("%s.%s has no doc tag", typ.Name(), f.Key)
			}
		}
	}
}
