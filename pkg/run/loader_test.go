package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// withCatalog gives an engine what cmd gives it of the chain files
// around the running one (pkg/catalog).
var withCatalog = WithLoader(Loader{NamesBelow: catalog.NamesBelow, Parse: loader.Parse})

// TestLoaderIsWhatNamesAreCheckedAgainst: the names a candidate may not
// take come from the engine's Loader, whatever it is; an engine given
// none publishes nothing unchecked and says why.
func TestLoaderIsWhatNamesAreCheckedAgainst(t *testing.T) {
	elsewhere := func(name, file string) Option {
		return WithLoader(Loader{NamesBelow: func(root string) map[string][]string {
			return map[string][]string{name: {filepath.Join(root, file)}}
		}})
	}
	cases := []struct {
		name, executor string
		loader         []Option
		status         record.Status
		want, written  string
	}{
		{"no loader: registry writes nothing", "kind: registry\ndefinitionId: greet", nil, record.Failed,
			"the names already in use cannot be checked: this engine was given no catalog of chain files (run.WithLoader)", ""},
		{"no loader: dry_run says so", "kind: dry_run\ndefinitionId: greet", nil, record.Succeeded,
			`"errors":["the names already in use cannot be checked`, ""},
		{"a name the loader knows", "kind: registry\ndefinitionId: greet", []Option{elsewhere("greet", "far/away.yaml")}, record.Failed,
			"a chain or workflow named greet is already in far/away.yaml", ""},
		{"a name the loader does not know", "kind: registry\ndefinitionId: greet", []Option{elsewhere("other", "far/away.yaml")}, record.Succeeded,
			`"path":"greet.yaml"`, "greet.yaml"},
		{"the catalog's names", "kind: registry\ndefinitionId: greet", []Option{withCatalog}, record.Succeeded,
			`"path":"greet.yaml"`, "greet.yaml"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "author.yaml")
			src := withContext(executorFlow("", tc.executor, "report: \"$.output\""), "{candidate_definition: "+goodCandidate+"}")
			if err := os.WriteFile(file, []byte(writeOn+src), 0o644); err != nil {
				t.Fatal(err)
			}
			l, err := loader.LoadFile(file, chain.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := New(append([]Option{WithDir(t.TempDir())}, tc.loader...)...).Run(context.Background(), Request{Chain: l.Chain})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", res.Status, tc.status, res.Error)
			}
			if text := res.Error + asJSON(t, res.Context); !strings.Contains(text, tc.want) {
				t.Errorf("no %q in %s", tc.want, text)
			}
			_, err = os.Stat(filepath.Join(dir, "greet.yaml"))
			if written := err == nil; written != (tc.written != "") {
				t.Errorf("greet.yaml written: %v", written)
			}
		})
	}
}
