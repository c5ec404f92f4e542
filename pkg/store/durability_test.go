package store

import (
	"os"
	"testing"

	"github.com/chainrun/chainrun/pkg/run/record"
)

// TestDurabilityDecidesTheFlushes: a Normal run writes each record and
// flushes nothing; a Strict one flushes the journal for every record.
// Both read back the same.
func TestDurabilityDecidesTheFlushes(t *testing.T) {
	syncs := 0
	syncFile = func(f *os.File) error { syncs++; return f.Sync() }
	t.Cleanup(func() { syncFile = (*os.File).Sync })
	for _, tt := range []struct {
		d     Durability
		syncs int
	}{{Normal, 0}, {Strict, 3}} {
		syncs = 0
		s := Open(t.TempDir())
		s.SetDurability(tt.d)
		id := "20260101-000000-000-" + tt.d.String()
		r, err := s.Create(Record{RunID: id, Name: "c"}, []byte("name: c\n"))
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []string{"a", "b", "c"} {
			if err := r.StepFinished(record.StepRecord{Result: record.StepResult{ID: step, Status: record.StepSucceeded, Attempts: 1}}); err != nil {
				t.Fatal(err)
			}
		}
		r.Close()
		if syncs != tt.syncs {
			t.Errorf("%s: %d journal flushes, want %d", tt.d, syncs, tt.syncs)
		}
		sv, err := s.Load(id)
		if err != nil || len(sv.Steps) != 3 {
			t.Errorf("%s: read back %v %v", tt.d, sv, err)
		}
	}
}

func TestParseDurability(t *testing.T) {
	for in, want := range map[string]Durability{"": Normal, "normal": Normal, "strict": Strict} {
		if d, err := ParseDurability(in); err != nil || d != want {
			t.Errorf("%q: %v %v", in, d, err)
		}
	}
	if _, err := ParseDurability("full"); err == nil {
		t.Error("an unknown durability was accepted")
	}
}
