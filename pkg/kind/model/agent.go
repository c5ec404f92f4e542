package model

import (
	"reflect"
	"slices"

	"github.com/chainrun/chainrun/pkg/chain"
)

// An agent step is one model call (a loop of them when it lists tools);
// its fields (chain.AgentFields) configure every kind's model call, which
// the core's validator judges on every step.
func init() {
	chain.Register(chain.Unit{
		Kind:           chain.KindAgent,
		Order:          10,
		Conversational: true,
		Body:           reflect.TypeFor[chain.AgentFields](),
		Also:           []string{"cwd"},
		Models:         true,
		Check:          checkAgent,
		Compile:        compileAgent,
	})
}

// checkAgent requires an agent step's prompt, and refuses a cache with
// tools.
func checkAgent(v chain.Checker, s *chain.Step) {
	if s.Agent().Prompt == "" {
		v.Errorf(s.Pos, "%s: prompt is required for an agent step (set type: cli, http, transform or file for a step that needs no model)", s.Subject())
	}
	if len(s.Agent().Tools) > 0 && s.Agent().Cache != nil && s.Agent().Cache.Enabled {
		// a cached answer would skip the tool calls: stale reads, and
		// writes that never happen
		v.Errorf(s.At("cache"), "%s: cache cannot be used with tools: a cached answer would skip the tool calls (what they read may have changed, what they write would not be written); remove cache, or move the tools to a step of their own", s.Subject())
	}
}

// compileAgent parses an agent step's prompt, system prompt and cwd, and
// holds its context_strategy to the steps it depends on.
func compileAgent(v chain.Checker, s *chain.Step, c *chain.Compiled) {
	c.Prompt = v.Template(s, "prompt", s.Agent().Prompt)
	c.System = v.Template(s, "system", s.Agent().System)
	c.Cwd = v.Template(s, "cwd", s.Workdir().Cwd)
	for dep := range s.Agent().ContextStrategy {
		switch {
		case slices.Contains(s.DependsOn, dep) || v.Produced(dep) != nil && slices.Contains(s.DependsOn, v.Produced(dep).ID):
		case v.Chain().Reading().LooseStrategies:
			v.Warnf(s.At("context_strategy"), "%s: context_strategy names %q, which is neither a step it depends on nor the output_var of one: accepted, as %s accepts it (it applies if the prompt reads that name)", s.Subject(), dep, v.Chain().Reading().Source)
		default:
			v.Errorf(s.At("context_strategy"), "%s: context_strategy names %q, which is neither a step it depends on nor the output_var of one", s.Subject(), dep)
		}
	}
}
