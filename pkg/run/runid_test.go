package run

import (
	"regexp"
	"testing"
	"time"
)

// TestNewRunID: an id names its start to the millisecond, in a form that
// sorts by it, and ids of one millisecond differ.
func TestNewRunID(t *testing.T) {
	at := time.Date(2026, 11, 22, 19, 3, 52, 417_900_000, time.FixedZone("CET", 3600))
	form := regexp.MustCompile(`^20261122-180352-417-[0-9a-f]{6}$`)
	seen := map[string]bool{}
	for range 200 {
		id := NewRunID(at)
		if !form.MatchString(id) {
			t.Fatalf("NewRunID = %q, want the UTC time to the millisecond and six hex digits", id)
		}
		seen[id] = true
		if got, ok := RunIDTime(id); !ok || !got.Equal(at.Truncate(time.Millisecond)) {
			t.Fatalf("RunIDTime(%q) = %v, %v; want %v", id, got, ok, at.Truncate(time.Millisecond))
		}
	}
	if len(seen) < 190 {
		t.Errorf("200 ids of one millisecond gave %d different ones", len(seen))
	}
	if a, b := NewRunID(at), NewRunID(at.Add(time.Millisecond)); a[:19] >= b[:19] {
		t.Errorf("%s does not sort before %s", a, b)
	}
}
