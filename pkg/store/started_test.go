package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chainrun/chainrun/pkg/chain"
)

// TestStartedAtIsRFC3339AndOldRunsStillLoad holds that a new run's
// run.json keeps started_at in RFC 3339 (like updated_at), that a run
// saved with the old form (the id's "20261122-100000") still loads and
// lists in the new form, and that old and new runs sort by start time
// together.
func TestStartedAtIsRFC3339AndOldRunsStillLoad(t *testing.T) {
	s := Open(t.TempDir())
	l, err := chain.Parse("c.yaml", []byte("name: c\nsteps: [{id: a, type: transform, expr: '1'}]\n"), chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(l.Chain, "20261122-110000-250-bbbbbb", nil)
	if rec.StartedAt != "2026-11-22T11:00:00.250Z" {
		t.Errorf("a new run starts at %q", rec.StartedAt)
	}
	if _, err := time.Parse(time.RFC3339, rec.StartedAt); err != nil {
		t.Errorf("not RFC 3339: %v", err)
	}
	r, err := s.Create(rec, l.Chain.Source)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	old := filepath.Join(s.Dir(), "runs", "20261122-100000-000-aaaaaa")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"run.json":   `{"run_id":"20261122-100000-000-aaaaaa","name":"c","status":"succeeded","started_at":"20261122-100000","updated_at":"2026-11-22T10:00:02Z"}`,
		"chain.yaml": "name: c\nsteps: [{id: a, type: transform, expr: '1'}]\n",
		// a run that ended has its log (one that lost it is refused)
		"events.jsonl": `{"v":1,"type":"run.finished","run_id":"20261122-100000-000-aaaaaa","status":"succeeded"}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(old, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sv, err := s.Load("20261122-100000-000-aaaaaa")
	if err != nil {
		t.Fatalf("an old run does not load: %v", err)
	}
	if sv.Record.StartedAt != "2026-11-22T10:00:00.000Z" {
		t.Errorf("an old run starts at %q", sv.Record.StartedAt)
	}
	recs, err := s.List()
	if err != nil || len(recs) != 2 || recs[0].RunID != "20261122-110000-250-bbbbbb" || recs[1].StartedAt != "2026-11-22T10:00:00.000Z" {
		t.Fatalf("listed %+v %v", recs, err)
	}
}
