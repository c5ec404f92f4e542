package chain

import "reflect"

// HumanFields configure a human step: a request for a person's approval.
type HumanFields struct {
	// Queue names the queue of people the request goes to
	// (mcp-flowgate's human executor): `chainrun approvals --queue Q`
	// lists the runs waiting on it.
	Queue string `yaml:"queue" doc:"The queue of approvers the request goes to: chainrun approvals --queue lists the runs that wait on it."`
}

// humanKind is a request to a person. As a workflow executor it records
// the request (its queue) and the run waits at the decision point it
// leads to, where a person takes a transition (chainrun approvals lists
// those runs). The DAG engine cannot run it, which `chainrun validate`
// warns about; its prompt is the question.
var humanKind = kindUnit{
	kind: KindHuman,
	body: reflect.TypeFor[HumanFields](),
	also: []string{"prompt"},
	compile: func(v *validator, s *Step, c *Compiled) {
		c.Prompt = v.template(s, "prompt", s.Prompt)
	},
}
