package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/schema"
	"github.com/chainrun/chainrun/pkg/load"
)

// TestSchemaAcceptsEveryFixtureChain proves `chainrun schema` against the
// chain files of the CLI tests: every one chainrun accepts, the schema
// accepts too.
func TestSchemaAcceptsEveryFixtureChain(t *testing.T) {
	rs, err := schema.ResolvedSchema()
	if err != nil {
		t.Fatal(err)
	}
	scripts, _ := filepath.Glob("testdata/script/*.txtar")
	checked := 0
	for _, script := range scripts {
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "chains/") || !catalog.IsChainFile(f.Name) || strings.HasSuffix(f.Name, ".json") {
				continue // a JSON chain is contenox's task chain format, not the schema's
			}
			l, err := load.Parse(f.Name, f.Data, chain.Options{LenientVariables: true})
			if err != nil {
				continue // a fixture that is broken on purpose
			}
			if tolerated(l) {
				// the schema is the format as it should be written: what
				// chainrun only tolerates in a peer's file, with a warning
				// that mcp-flowgate loads it, an editor may flag
				continue
			}
			var doc any
			if err := yaml.Load(f.Data, &doc); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(doc)
			var inst any
			json.Unmarshal(b, &inst)
			if err := rs.Validate(inst); err != nil {
				t.Errorf("%s %s: chainrun accepts it, the schema does not: %v", script, f.Name, err)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d fixture chains checked", checked)
	}
}

// tolerated reports whether chainrun accepted the file only as a peer
// accepts it: an executor's kind no kind has, which it warns of.
func tolerated(l *chain.Loaded) bool {
	for _, w := range l.Warnings {
		if strings.Contains(w.String(), "loaded as mcp-flowgate loads it") {
			return true
		}
	}
	return false
}
