package spell

// Closest returns the candidate closest to s, if it is close enough to be
// the likely intent ("did you mean"): a slip of one or two keys, never a
// different word. Distance counts a swap of two neighbouring letters as
// one edit (woh → who), and a suggestion is at most one edit from a name
// of up to 7 letters, two up to 11, a third of the name beyond: foo is
// never "go".
func Closest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	// a suggestion keeps at least one letter of s: x is never "y"
	if best != "" && bestD <= closeEnough(s) && bestD < len([]rune(s)) {
		return best
	}
	return ""
}

// closeEnough is the most edits a suggestion for s may take.
func closeEnough(s string) int {
	n := len([]rune(s))
	switch {
	case n <= 7:
		return 1
	case n <= 11:
		return 2
	}
	return n / 3
}

// DidYouMean is " (did you mean X?)" for the candidate closest to a
// mistyped name, or "": every name a user types (a chain's field, a config
// key, a flag, a JSONPath's root) gets the same help.
func DidYouMean(s string, candidates []string) string {
	if m := Closest(s, candidates); m != "" {
		return " (did you mean " + m + "?)"
	}
	return ""
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of two neighbours, each
// one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := make([][]int, len(ra)+1)
	for i := range rows {
		rows[i] = make([]int, len(rb)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(ra)][len(rb)]
}
