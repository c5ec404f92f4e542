package chaintest

import "strings"

// DiffLine is one line of a diff: Op is ' ' (in both), '-' (only in
// what was wanted) or '+' (only in what the run produced).
type DiffLine struct {
	Op   string
	Text string
}

// maxDiffLines bounds the lines of each side a diff is computed over
// (the comparison is quadratic); the rest is shown as one change.
const maxDiffLines = 2000

// lineDiff is the lines of want and got as a shortest edit script: the
// longest run of lines they share kept, the rest removed and added.
func lineDiff(want, got string) []DiffLine {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	var tailA, tailB []string
	if len(a) > maxDiffLines {
		a, tailA = a[:maxDiffLines], a[maxDiffLines:]
	}
	if len(b) > maxDiffLines {
		b, tailB = b[:maxDiffLines], b[maxDiffLines:]
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:]
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, DiffLine{" ", a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, DiffLine{"-", a[i]})
			i++
		default:
			out = append(out, DiffLine{"+", b[j]})
			j++
		}
	}
	for _, l := range tailA {
		out = append(out, DiffLine{"-", l})
	}
	for _, l := range tailB {
		out = append(out, DiffLine{"+", l})
	}
	return out
}
