package chain

// Quote is s in double quotes, as messages name a value. It is exported
// for the front-ends, whose messages name values as the model's do.
func Quote(s string) string { return `"` + s + `"` }

// quote is Quote, for this package's messages.
func quote(s string) string { return Quote(s) }
