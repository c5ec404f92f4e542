package chain

// humanKind is a question to a person: the format accepts it (its prompt
// is the question) but the DAG engine cannot run it, which
// `chainrun validate` warns about; workflows ask people through
// actor: human instead.
var humanKind = kindUnit{
	kind: KindHuman,
	also: []string{"prompt"},
	compile: func(v *validator, s *Step, c *Compiled) {
		c.Prompt = v.template(s, "prompt", s.Prompt)
	},
}
