package run

import "fmt"

// occTruncated is text cut to its first limit characters, marked as OCC
// marks a cut ("[truncated from N chars]" on a line of its own); text no
// longer than limit is unchanged.
func OccTruncated(text string, limit int) string {
	r := []rune(text)
	if len(r) <= limit {
		return text
	}
	return string(r[:limit]) + fmt.Sprintf("\n[truncated from %d chars]", len(r))
}
