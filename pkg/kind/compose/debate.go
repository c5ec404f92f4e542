package compose

import "github.com/chainrun/chainrun/pkg/chain"

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// DebateFields configure a debate step (OCC's `type: debate`): its agents
// answer, each round after the first seeing the others' last answers,
// and a synthesis (strategy consensus or vote) or the last answers
// themselves (last_round) are the output.
type DebateFields struct {
	Agents []DebateAgent `yaml:"agents" doc:"A debate's agents: {role, prompt, model}; each prompt is a template, model defaults to the step's."`
	Rounds int           `yaml:"rounds" doc:"How many rounds a debate runs (default 1, at most 100); from the second on, each agent sees the others' last answers."`

	// debaters are the agents' model steps.
	debaters []*chain.Step
}

// DebateAgent is one voice of a debate.
type DebateAgent struct {
	Role   string `yaml:"role" doc:"The agent's name in the others' view and in the synthesis."`
	Prompt string `yaml:"prompt" doc:"What the agent argues; {variables} are filled in."`
	Model  string `yaml:"model" doc:"The agent's model (default: the step's)."`
}

// Debate strategies.
const (
	DebateConsensus = "consensus"
	DebateVote      = "vote"
	DebateLastRound = "last_round"
)

var debateStrategies = []string{DebateConsensus, DebateVote, "voting", DebateLastRound}

// DebateLocals are the names a debate's model steps read: the other
// agents' last answers (empty in the first round), and for the
// synthesis the agents' final answers.
var DebateLocals = []string{"debate_others", "debate_positions"}

// Debaters are the model steps of a debate's agents, in order.
func Debaters(s *chain.Step) []*chain.Step { return Debate(s).debaters }

// DebateStrategy is the step's strategy: consensus, vote or last_round
// (voting is vote; OCC's default is vote).
func DebateStrategy(s *chain.Step) string {
	switch Merge(s).Strategy {
	case "", "voting":
		return DebateVote
	}
	return Merge(s).Strategy
}

// DebateRounds is the step's rounds, 1 when unset.
func DebateRounds(s *chain.Step) int { return max(Debate(s).Rounds, 1) }

func init() {
	chain.Register(chain.Unit{
		Kind:   chain.KindDebate,
		Nested: func(s *chain.Step) []*chain.Step { return Debate(s).debaters },
		Order:  190,
		Body:   reflect.TypeFor[DebateFields](),
		Also:   append([]string{"strategy"}, chain.ModelKeys...),
		// OCC's engine spells a debate's fields with its type before them
		// (its tests do; its chain files write agents, rounds, strategy)
		KeyAliases: map[string]chain.KeyAlias{
			"debate_agents":   {To: "agents", Note: "is OCC's own spelling of a debate's agents: read as agents (its chain files write agents)"},
			"debate_rounds":   {To: "rounds", Note: "is OCC's own spelling of a debate's rounds: read as rounds (its chain files write rounds)"},
			"debate_decision": {To: "strategy", Note: "is OCC's own spelling of a debate's strategy: read as strategy (its chain files write strategy)"},
		},
		Models: true,
		Check:  checkDebate,
		Compile: func(v chain.Checker, s *chain.Step, c *chain.Compiled) {
			for _, d := range append(slices.Clone(Debate(s).debaters), s.ModelStep()) {
				if d != nil && d.Kind != "" {
					v.Compile(d)
				}
			}
		},
	})
}

func checkDebate(v chain.Checker, s *chain.Step) {
	if len(Debate(s).Agents) < 2 {
		v.Errorf(s.At("agents"), "%s: a debate needs at least two agents: agents: [{role, prompt}, …]", s.Subject())
	}
	if _, set := s.FieldPos["rounds"]; set && Debate(s).Rounds < 1 {
		v.Errorf(s.At("rounds"), "%s: rounds must be 1 or more", s.Subject())
	}
	if Debate(s).Rounds > chain.MaxDebateRounds {
		v.Errorf(s.At("rounds"), "%s: rounds %d is more than %d, the most rounds a debate may run (each asks every agent)", s.Subject(), Debate(s).Rounds, chain.MaxDebateRounds)
	}
	if Merge(s).Strategy != "" && !slices.Contains(debateStrategies, Merge(s).Strategy) {
		v.Errorf(s.At("strategy"), "%s: a debate's strategy is consensus, vote or last_round, not %q%s", s.Subject(), Merge(s).Strategy, chain.DidYouMean(Merge(s).Strategy, debateStrategies))
	}
	chain.Own[DebateFields](s).debaters = nil
	for i, a := range Debate(s).Agents {
		if strings.TrimSpace(a.Prompt) == "" {
			v.Errorf(s.At("agents"), "%s: agent %d has no prompt", s.Subject(), i+1)
			continue
		}
		m := v.NewModelStep(s, a.Prompt+"{debate_others}")
		if a.Model != "" {
			chain.Own[chain.AgentFields](m).Model = a.Model
		}
		m.SetSubject(fmt.Sprintf("%s agent %d", s.Subject(), i+1))
		m.SetLocals(DebateLocals[:1])
		chain.Own[DebateFields](s).debaters = append(Debate(s).debaters, m)
	}
	chain.SetModelStep(s, nil)
	if DebateStrategy(s) == DebateLastRound {
		return
	}
	label := map[string]string{DebateConsensus: "consensus", DebateVote: "majority position"}[DebateStrategy(s)]
	topic := ""
	if s.Agent().Prompt != "" {
		topic = "Topic: " + s.Agent().Prompt + "\n\n"
	}
	rounds := ""
	if DebateRounds(s) > 1 {
		rounds = fmt.Sprintf(" over %d rounds of debate", DebateRounds(s))
	}
	chain.SetModelStep(s, v.NewModelStep(s, topic+"Multiple experts have analyzed this topic"+rounds+". Synthesize their final positions into a single coherent answer reflecting the "+label+".\n\n{debate_positions}\n\nFinal synthesized answer:"))
	s.ModelStep().SetLocals(DebateLocals[1:])
}

// Debate is the step's DebateFields, a shared zero value when it has none (read
// only; write through Own).
func Debate(s *chain.Step) *DebateFields { return chain.Part[DebateFields](s) }
