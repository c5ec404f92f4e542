package chain

// suggest returns the candidate closest to s, if it is close enough to be
// the likely intent ("did you mean").
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 2 || bestD <= len(s)/3 {
		return best
	}
	return ""
}

// DidYouMean is " (did you mean X?)" for the candidate closest to a
// mistyped name, or "": every name a user types (a chain's field, a config
// key) gets the same help.
func DidYouMean(s string, candidates []string) string { return didYouMean(s, candidates) }

func didYouMean(s string, candidates []string) string {
	if m := suggest(s, candidates); m != "" {
		return " (did you mean " + m + "?)"
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
