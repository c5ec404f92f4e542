package chain

// CallFields configure a chain step: it runs another chain with inputs
// and its output is that chain's result.
type CallFields struct {
	Chain string            `yaml:"chain" doc:"Name (or file) of the chain a chain step runs."`
	With  map[string]string `yaml:"with" doc:"Inputs given to the chain a chain step runs."`

	// withKey is the field the inputs were written in: with, or a
	// subchain's inputs.
	withKey string
}

// WithField is the field a chain step's inputs were written in, for
// messages: with, or inputs on OCC's subchain.
func WithField(s *Step) string {
	if Call(s).withKey == "" {
		return "with"
	}
	return Call(s).withKey
}

// Call is the step's CallFields, a shared zero value when it has none (read
// only; write through Own).
func Call(s *Step) *CallFields { return Part[CallFields](s) }

// SetWithKey says which field a chain step's inputs were written in, for
// messages (OCC's subchain writes them as inputs).
func (c *CallFields) SetWithKey(key string) { c.withKey = key }
