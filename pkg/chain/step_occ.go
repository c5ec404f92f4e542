package chain

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
	debaters []*Step
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
func (s *Step) Debaters() []*Step { return s.Debate().debaters }

// DebateStrategy is the step's strategy: consensus, vote or last_round
// (voting is vote; OCC's default is vote).
func (s *Step) DebateStrategy() string {
	switch s.Merge().Strategy {
	case "", "voting":
		return DebateVote
	}
	return s.Merge().Strategy
}

// DebateRounds is the step's rounds, 1 when unset.
func (s *Step) DebateRounds() int { return max(s.Debate().Rounds, 1) }

func init() {
	Register(Unit{
		Kind:   KindDebate,
		Order:  190,
		Body:   reflect.TypeFor[DebateFields](),
		Also:   append([]string{"strategy"}, modelKeys...),
		Models: true,
		Check:  checkDebate,
		Compile: func(v Checker, s *Step, c *Compiled) {
			for _, d := range append(slices.Clone(s.Debate().debaters), s.Merge().modelStep) {
				if d != nil && d.Kind != "" {
					v.Compile(d)
				}
			}
		},
	})
}

func checkDebate(v Checker, s *Step) {
	if len(s.Debate().Agents) < 2 {
		v.Errorf(s.At("agents"), "%s: a debate needs at least two agents: agents: [{role, prompt}, …]", s.subject())
	}
	if _, set := s.FieldPos["rounds"]; set && s.Debate().Rounds < 1 {
		v.Errorf(s.At("rounds"), "%s: rounds must be 1 or more", s.subject())
	}
	if s.Debate().Rounds > MaxDebateRounds {
		v.Errorf(s.At("rounds"), "%s: rounds %d is more than %d, the most rounds a debate may run (each asks every agent)", s.subject(), s.Debate().Rounds, MaxDebateRounds)
	}
	if s.Merge().Strategy != "" && !slices.Contains(debateStrategies, s.Merge().Strategy) {
		v.Errorf(s.At("strategy"), "%s: a debate's strategy is consensus, vote or last_round, not %q%s", s.subject(), s.Merge().Strategy, didYouMean(s.Merge().Strategy, debateStrategies))
	}
	Own[DebateFields](s).debaters = nil
	for i, a := range s.Debate().Agents {
		if strings.TrimSpace(a.Prompt) == "" {
			v.Errorf(s.At("agents"), "%s: agent %d has no prompt", s.subject(), i+1)
			continue
		}
		m := v.modelStep(s, a.Prompt+"{debate_others}")
		if a.Model != "" {
			Own[AgentFields](m).Model = a.Model
		}
		m.label = fmt.Sprintf("%s agent %d", s.subject(), i+1)
		m.locals = DebateLocals[:1]
		Own[DebateFields](s).debaters = append(s.Debate().debaters, m)
	}
	Own[MergeFields](s).modelStep = nil
	if s.DebateStrategy() == DebateLastRound {
		return
	}
	label := map[string]string{DebateConsensus: "consensus", DebateVote: "majority position"}[s.DebateStrategy()]
	topic := ""
	if s.Agent().Prompt != "" {
		topic = "Topic: " + s.Agent().Prompt + "\n\n"
	}
	rounds := ""
	if s.DebateRounds() > 1 {
		rounds = fmt.Sprintf(" over %d rounds of debate", s.DebateRounds())
	}
	Own[MergeFields](s).modelStep = v.modelStep(s, topic+"Multiple experts have analyzed this topic"+rounds+". Synthesize their final positions into a single coherent answer reflecting the "+label+".\n\n{debate_positions}\n\nFinal synthesized answer:")
	Own[MergeFields](s).modelStep.locals = DebateLocals[1:]
}

// WebhookFields configure what a webhook step adds to an http step (its
// url, method, headers, body and security rules), which POSTs by default
// and whose default body is a JSON payload of the run: OCC's list of the
// statuses that mean success.
type WebhookFields struct {
	SuccessStatus []int `yaml:"success_status" doc:"webhook: the HTTP statuses that mean success (OCC's webhook_success_status; default any 2xx): any other fails the step."`
}

// StatusFails reports whether a response's status fails an http or
// webhook step: one outside success_status when the step lists them,
// else one outside 2xx unless fail_on_status is false.
func (s *Step) StatusFails(status int) bool {
	if len(s.Webhook().SuccessStatus) > 0 {
		return !slices.Contains(s.Webhook().SuccessStatus, status)
	}
	return (status < 200 || status > 299) && (s.HTTP().FailOnStatus == nil || *s.HTTP().FailOnStatus)
}

func init() {
	Register(Unit{
		Kind:    KindWebhook,
		Order:   200,
		Body:    reflect.TypeFor[WebhookFields](),
		Also:    []string{"url", "method", "headers", "body", "fail_on_status", keyField, "prompt"},
		Ignored: []string{"model"},
		Check: func(v Checker, s *Step) {
			if s.HTTP().URL == "" {
				v.Errorf(s.Pos, "%s: url is required for a webhook step (where its payload is sent)", s.subject())
			}
			Own[HTTPFields](s).Method = strings.ToUpper(s.HTTP().Method)
			if s.HTTP().Method == "" {
				Own[HTTPFields](s).Method = "POST"
			}
			if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, s.HTTP().Method) {
				v.Errorf(s.At("method"), "%s: a webhook's method is POST, PUT, PATCH, GET or DELETE, not %q", s.subject(), s.HTTP().Method)
			}
			if (s.HTTP().Method == "GET" || s.HTTP().Method == "DELETE") && (s.HTTP().Body != "" || s.HTTP().BodyData != nil) && v.Chain().OCC() {
				// OCC's webhook builds no body for GET and DELETE
				v.Warnf(s.At("body"), "%s: body ignored with %s, as OCC's webhook sends none (chainrun's own format sends it)", s.subject(), s.HTTP().Method)
				Own[HTTPFields](s).Body, Own[HTTPFields](s).BodyData = "", nil
			}
		},
		Compile: compileHTTP,
	})
}

// BrowserFields are OCC's browser step: a model driving a web browser.
// chainrun loads such a step (so the rest of a file can be checked and
// run) but running it fails, naming the step.
type BrowserFields struct {
	Action      string `yaml:"action" doc:"browser (not supported: running the step fails): what to do, as screenshot."`
	BrowserURL  string `yaml:"browser_url" doc:"browser (not supported): the starting URL."`
	BrowserTask string `yaml:"browser_task" doc:"browser (not supported): the task."`
}

func init() {
	Register(Unit{
		Kind:   KindBrowser,
		Order:  210,
		Body:   reflect.TypeFor[BrowserFields](),
		Also:   append([]string{"url", "tools"}, modelKeys...),
		Models: true,
	})
}

// subchainKind is OCC's `type: subchain`, a chain step under another
// name: chain names the chain, inputs (a mapping) are its with. It is
// checked as written and then becomes a chain step.
func init() {
	Register(Unit{
		Kind:    KindSubchain,
		Order:   180,
		Also:    []string{"chain", "with", "inputs", "prompt"},
		Ignored: []string{"model"},
		Check: func(v Checker, s *Step) {
			if s.Merge().Inputs != nil {
				m, ok := s.Merge().Inputs.(map[string]any)
				if !ok {
					v.Errorf(s.At("inputs"), "%s: a subchain's inputs are a mapping: the called chain's input names and their values", s.subject())
				}
				if s.Call().With != nil {
					v.Errorf(s.At("inputs"), "%s: set inputs or with, not both", s.subject())
				}
				Own[CallFields](s).With = map[string]string{}
				for k, x := range m {
					Own[CallFields](s).With[k] = textOfYAML(x)
				}
				Own[CallFields](s).withKey = "inputs"
			}
			s.Kind = KindChain
			checkCall(v, s)
		},
	})
}

// textOfYAML is a YAML scalar as the text an input takes.
func textOfYAML(x any) string {
	if str, ok := x.(string); ok {
		return str
	}
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}
