package chain

import (
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain/reqparams"
)

// AgentFields configure an agent step: one model call (a loop of them when
// it lists tools). Every one of them but prompt is refused on a
// deterministic step, which runs no model.
type AgentFields struct {
	Model           string            `yaml:"model" doc:"provider/model of an agent step (anthropic/claude-sonnet-4-6, openai/gpt-4o-mini, ollama/llama3.2)."`
	Prompt          string            `yaml:"prompt" doc:"The prompt of an agent step, or the question of a human step; {variables} are filled in."`
	System          string            `yaml:"system" doc:"The system prompt of an agent step."`
	Temperature     *float64          `yaml:"temperature" doc:"Sampling temperature of an agent step."`
	MaxTokens       int               `yaml:"max_tokens" doc:"Cap on the answer of an agent step (default 4096); an answer cut there fails the step (finish_reason length), unless a workflow branch takes length."`
	Tools           []string          `yaml:"tools" scalar:"ok" doc:"Tools the model may call: built-in Read, Write, Edit, Glob, Grep, Bash, or tools the chain defines."`
	FallbackModels  []string          `yaml:"fallback_models" scalar:"ok" doc:"Models tried in order after the primary fails transiently."`
	Cache           *Cache            `yaml:"cache" doc:"Keep the answer: {enabled, ttl_minutes}, or true."`
	ContextStrategy map[string]string `yaml:"context_strategy" doc:"Per dependency: full, truncate:N or summarize."`
	MaxTurns        int               `yaml:"max_turns" doc:"Cap on the model calls of one agent step with tools (default 20, at most 1000)."`
	// ConditionKey lists the keywords the model must answer with; the
	// one it chose is the step's result (reference 003's condition_key).
	ConditionKey []string `yaml:"condition_key" doc:"Keywords the model must answer with; the one it chose is the step's output and a task's result to branch on (reference 003)."`
	// Completion ends the tool loop when the model calls it with valid
	// arguments, which become the output.
	Completion *Completion `yaml:"completion" doc:"completion: {tool, schema}: the step ends when the model calls this tool with arguments that satisfy the schema; they become the output."`
	// Params are the request's other parameters, checked here for type
	// and range and at run for the provider that takes them.
	Params *reqparams.Params `yaml:"params" doc:"Request parameters: seed, top_p, stop, presence_penalty, frequency_penalty, reasoning_effort, max_output_tokens, and extra (merged into the request body last); a parameter the step's provider does not take is refused."`
	// PromptCache marks the stable prefix for the provider's prompt
	// cache; nil: on for a tool loop from its third turn.
	PromptCache    *bool  `yaml:"prompt_cache" doc:"Mark the system prompt, tools and transcript for the provider's prompt cache (Anthropic's cache_control); default: on for a tool loop from its third model call."`
	PromptCacheKey string `yaml:"prompt_cache_key" doc:"OpenAI's prompt_cache_key: requests that share a prefix and this key reach the same cache."`
}

// modelFields checks the values of the fields that configure a model call.
// It runs for every kind, so that a misplaced field's value is judged too.
func (v *validator) modelFields(s *Step) {
	for dep, strat := range s.Agent().ContextStrategy {
		if !validStrategy(strat) && v.c.reads().LooseStrategies {
			v.d.Warnf(s.At("context_strategy"), "%s: context_strategy %s: %q is not full, summarize or truncate:N: the value is passed in full, as %s passes it", s.Subject(), dep, strat, v.c.reads().Source)
		} else if !validStrategy(strat) {
			v.d.Errorf(s.At("context_strategy"), "%s: context_strategy %s: %q is not full, summarize or truncate:N", s.Subject(), dep, strat)
		}
	}
	v.stepTools(s)
	if s.Agent().MaxTokens < 0 || s.Agent().MaxTurns < 0 {
		v.d.Errorf(s.Pos, "%s: max_tokens and max_turns cannot be negative", s.Subject())
	}
	if t := s.Agent().Temperature; t != nil && !(*t >= 0 && *t <= 2) {
		v.d.Errorf(s.At("temperature"), "%s: temperature %v is not between 0 and 2", s.Subject(), *t)
	}
	if s.Agent().MaxTurns > MaxAgentTurns {
		v.d.Errorf(s.At("max_turns"), "%s: max_turns %d is more than %d, the most model calls one agent step may make", s.Subject(), s.Agent().MaxTurns, MaxAgentTurns)
	}
	if p := s.Agent().Params; p != nil {
		for _, problem := range p.Problems() {
			v.d.Errorf(s.At("params"), "%s: params: %s", s.Subject(), problem)
		}
		if p.MaxOutputTokens != nil && s.Agent().MaxTokens != 0 {
			v.d.Errorf(s.At("params"), "%s: set max_tokens or params.max_output_tokens, not both", s.Subject())
		}
	}
}

func validStrategy(s string) bool {
	if s == "full" || s == "summarize" {
		return true
	}
	n, ok := strings.CutPrefix(s, "truncate:")
	if !ok {
		return false
	}
	i, err := strconv.Atoi(n)
	return err == nil && i > 0
}
