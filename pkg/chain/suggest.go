package chain

import "github.com/chainrun/chainrun/pkg/spell"

// DidYouMean is " (did you mean X?)" for the candidate closest to a
// mistyped name, or "": every name a user types (a chain's field, a config
// key, a flag) gets the same help (pkg/spell).
func DidYouMean(s string, candidates []string) string { return spell.DidYouMean(s, candidates) }

// Closest is the candidate a mistyped name most likely meant, "" when
// none is close enough: for messages that word the hint their own way.
func Closest(s string, candidates []string) string { return spell.Closest(s, candidates) }

// didYouMean and suggest keep this package's many messages short.
var (
	didYouMean = spell.DidYouMean
	suggest    = spell.Closest
)
