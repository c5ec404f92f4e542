package occ

import "time"

// This file holds what OCC's pre_tools give where chainrun's own give
// something else (OCC 13d9853 mcp-server/src/pretool-executor.ts): the
// engine runs the pre_tools and asks these through the chain's Reading.

// PreToolCap is the most characters OCC's read_file and http_fetch
// inject: the rest is cut, with "[truncated]" on a line of its own
// (chain.Reading.FetchCap).
const PreToolCap = 50000

// PreToolErrorText is what an on_error: inject pre_tool injects for its
// failure in a file read as OCC's: OCC's own text
// (chain.Reading.PreToolErrorText).
func PreToolErrorText(msg string) string { return "[PRE-TOOL ERROR: " + msg + "]" }

// Datetime is a current_datetime pre_tool's value in a file read as
// OCC's, as OCC's Node code writes it: iso is toISOString (UTC, with
// milliseconds and Z, whatever the time zone), locale is en-US's full
// date and medium time in the zone ("Wednesday, March 4, 2026 at 5:06:07
// AM"); unix and date are not OCC's own (ok false), and are written as
// chainrun writes them (chain.Reading.Datetime).
func Datetime(now time.Time, zone, format string) (string, bool) {
	switch format {
	case "", "iso":
		return now.UTC().Format("2006-01-02T15:04:05.000Z"), true
	case "locale":
		if zone == "" {
			zone = "UTC"
		}
		if loc, err := time.LoadLocation(zone); err == nil {
			now = now.In(loc)
		}
		return now.Format("Monday, January 2, 2006 at 3:04:05 PM"), true
	}
	return "", false
}
