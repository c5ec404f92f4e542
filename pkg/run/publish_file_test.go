package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/run/record"

	loader "github.com/chainrun/chainrun/pkg/load"
)

// TestRegistryPublishesAgainAsDone: a workflow that publishes a
// candidate, run again (as a resume after a crash right after the write
// runs the transition again), finds its own file and goes on.
func TestRegistryPublishesAgainAsDone(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "author.yaml")
	src := withContext(executorFlow("", "kind: registry\ndefinitionId: greet\ndir: out", "published: \"$.output\""), "{candidate_definition: "+goodCandidate+"}")
	if err := os.WriteFile(file, []byte(writeOn+src), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := loader.LoadFile(file, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		res, err := New(WithDir(t.TempDir()), withCatalog).Run(context.Background(), Request{Chain: l.Chain})
		if err != nil || res.Status != record.Succeeded || !strings.Contains(asJSON(t, res.Context), `"outcome":"published"`) {
			t.Fatalf("run %d: %v %s %s", i+1, err, res.Status, res.Error)
		}
	}
}
