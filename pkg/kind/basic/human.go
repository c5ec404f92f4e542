package basic

import "github.com/chainrun/chainrun/pkg/chain"

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
func init() {
	chain.Register(chain.Unit{
		Kind:  chain.KindHuman,
		Order: 60,
		Body:  reflect.TypeFor[HumanFields](),
		Also:  []string{"prompt"},
		Queue: func(s *chain.Step) string { return Human(s).Queue },
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			c.Prompt = v.Template(s, "prompt", s.Agent().Prompt)
		},
	})
}

// Human is the step's HumanFields, a shared zero value when it has none (read
// only; write through Own).
func Human(s *chain.Step) *HumanFields { return chain.Part[HumanFields](s) }
