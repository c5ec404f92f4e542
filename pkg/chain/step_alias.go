package chain

// registeredAliases are the step key aliases front-ends register, read
// into stepAliases the first time a step is decoded.
var registeredAliases = map[string]string{}

// aliasNotes are the notes of the step key aliases a front-end
// registers: each said where its alias is written.
var aliasNotes = map[string]string{}

// RegisterStepAlias makes from another spelling of the step key to, on
// every step, read with a warning that says note ("timeoutMs: read as
// timeout_ms (…)"): a front-end registers the spellings its peer's files
// write, from its package's init, before any file is read. Writing both
// spellings on one step is an error, as for any alias.
func RegisterStepAlias(from, to, note string) {
	registeredAliases[from] = to
	aliasNotes[from] = note
}
