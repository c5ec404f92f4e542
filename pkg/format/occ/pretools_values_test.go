package occ

import (
	"testing"
	"time"
)

// OCC 53e3082 mcp-server/tests/pretools-new.test.ts (current_datetime):
// iso is toISOString whatever the time zone, locale is en-US's in the
// zone, and unix and date are left to chainrun's own writing (ok false).
func TestDatetime(t *testing.T) {
	now := time.Date(2026, 3, 4, 10, 6, 7, 89e6, time.UTC)
	cases := []struct {
		zone, format, want string
		ok                 bool
	}{
		{"", "", "2026-03-04T10:06:07.089Z", true},
		{"Asia/Tokyo", "iso", "2026-03-04T10:06:07.089Z", true},
		{"", "locale", "Wednesday, March 4, 2026 at 10:06:07 AM", true},
		{"America/New_York", "locale", "Wednesday, March 4, 2026 at 5:06:07 AM", true},
		{"", "unix", "", false},
		{"Europe/Paris", "date", "", false},
	}
	for _, tc := range cases {
		got, ok := Datetime(now, tc.zone, tc.format)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Datetime(%q, %q) = %q, %v; want %q, %v", tc.zone, tc.format, got, ok, tc.want, tc.ok)
		}
	}
}

// A file read as OCC's takes OCC's pre_tool and context behaviours
// through its reading; its error text is OCC's own.
func TestReadingCarriesPreToolBehaviours(t *testing.T) {
	r := (&file{}).reading()
	if !r.ExitKeptWithStderr || !r.NonJSONKeptWhole || r.FetchCap != PreToolCap || !r.CutsMarked || !r.SummaryFailurePassesValue || !r.JSONErrorIsOutput || r.Datetime == nil {
		t.Errorf("OCC's reading misses a behaviour: %+v", r)
	}
	for _, msg := range []string{"boom", "", "exit 2: no such file"} {
		if got, want := r.PreToolErrorText(msg), "[PRE-TOOL ERROR: "+msg+"]"; got != want {
			t.Errorf("PreToolErrorText(%q) = %q, want %q", msg, got, want)
		}
	}
}
