package run

import "fmt"

// CutMarked is text cut to its first limit characters, the cut marked
// with the length cut from ("[truncated from N chars]" on a line of its
// own, as OCC marks one); text no longer than limit is unchanged.
func CutMarked(text string, limit int) string {
	r := []rune(text)
	if len(r) <= limit {
		return text
	}
	return string(r[:limit]) + fmt.Sprintf("\n[truncated from %d chars]", len(r))
}
