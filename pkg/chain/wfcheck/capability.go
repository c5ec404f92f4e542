package wfcheck

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/fileschema"
	"github.com/chainrun/chainrun/pkg/chain/wfpart"
)

// checkTiers warns of what mcp-flowgate's check refuses in its two tiers
// of workflows and its runtime runs all the same (validate.rs at 443aa7a,
// V7, V8, V10, V11): an orchestrator (flow.*) named flow. alone, one
// that declares a snippet or calls another orchestrator, and a
// capability (cap.*) that calls a workflow. chainrun runs each as
// written, as mcp-flowgate's runtime does.
func (v *checker) checkTiers() {
	c, w := v.c, v.c.Workflow
	stem := c.Name[strings.LastIndex(c.Name, "/")+1:]
	prefix := "workflow " + chain.Quote(c.Name) + ": "
	flow := strings.HasPrefix(stem, "flow.")
	if !flow && !chain.NamesCapability(c.Name) {
		return
	}
	if stem == "flow." {
		v.d.Warnf(c.Pos, "%san orchestrator is named flow.<name>; mcp-flowgate's check refuses this name (INVALID_ID_SHAPE)", prefix)
	}
	if _, declared := w.FieldPos["snippet"]; declared && flow {
		v.d.Warnf(w.FieldPos["snippet"], "%ssnippet: an orchestrator (flow.*) declares none, as only a capability is called by its contract; mcp-flowgate's check refuses it (ORCHESTRATOR_HAS_SNIPPET), and it is read as written", prefix)
	}
	c.Walk(func(s *chain.Step) {
		switch {
		case s.Kind != chain.KindWorkflow || s.Workflow().DefinitionID == "":
		case !flow:
			v.d.Warnf(s.At("definitionId"), "%s: a capability (cap.*) calls no workflow, here %s: only an orchestrator composes them; mcp-flowgate's check refuses it (CAPABILITY_NESTING), and it runs as written", v.Subject(s), s.Workflow().DefinitionID)
		case strings.HasPrefix(s.Workflow().DefinitionID[strings.LastIndex(s.Workflow().DefinitionID, "/")+1:], "flow."):
			v.d.Warnf(s.At("definitionId"), "%s: an orchestrator (flow.*) calls capabilities only, here orchestrator %s; mcp-flowgate's check refuses it (ORCHESTRATOR_NESTING), and it runs as written", v.Subject(s), s.Workflow().DefinitionID)
		}
	})
}

// checkCapability checks the workflow's verb and lifecycle against the
// closed vocabularies, and a cap.* name against its verb (a name that
// does not match is warned of).
func (v *checker) checkCapability() {
	c, w := v.c, v.c.Workflow
	if w.Cap.Verb != "" {
		at := at(w, "verb", c.Pos)
		switch {
		case !slices.Contains(wfpart.CapabilityVerbs(), w.Cap.Verb):
			v.d.Errorf(at, "workflow %q: verb %q is not one of %s", c.Name, w.Cap.Verb, strings.Join(wfpart.CapabilityVerbs(), ", "))
		case strings.HasPrefix(c.Name, "flow."):
			v.d.Errorf(at, "workflow %q: an orchestrator (flow.*) declares no verb", c.Name)
		case strings.HasPrefix(c.Name, "cap.") && !strings.HasPrefix(c.Name, "cap."+w.Cap.Verb+"."):
			// mcp-flowgate runs such a capability (its own end-to-end walks
			// call cap.tests.*, an older spelling): a warning, not a refusal
			v.d.Warnf(at, "workflow %q: a capability of verb %s is named cap.%s.<name>", c.Name, w.Cap.Verb, w.Cap.Verb)
		}
	}
	if w.Cap.Lifecycle != "" {
		at := at(w, "lifecycle", c.Pos)
		switch {
		case !slices.Contains(wfpart.Lifecycles(), w.Cap.Lifecycle):
			// mcp-flowgate checks no workflow's lifecycle (it only
			// compares it with stable): a warning, not a refusal
			v.d.Warnf(at, "workflow %q: lifecycle %q is not one of %s: read as written, which only stable and deprecated give a meaning", c.Name, w.Cap.Lifecycle, strings.Join(wfpart.Lifecycles(), ", "))
		case w.Cap.Lifecycle == wfpart.LifecycleDeprecated:
			v.d.Warnf(at, "workflow %q is deprecated (lifecycle: deprecated)", c.Name)
		}
	}
	if _, declared := w.FieldPos["snippet"]; !declared && chain.NamesCapability(c.Name) {
		// mcp-flowgate's check refuses it (snippet_contract.rs, V3); its
		// runtime runs it: a warning
		v.d.Warnf(c.Pos, "workflow %q: a capability declares its contract in snippet: {inputs, outputs}, which mcp-flowgate's check requires (MISSING_SNIPPET): without it, what the run returns is not checked", c.Name)
	}
	for _, o := range w.Cap.Outputs {
		_, rs, problem := fileschema.ResolveSchema(o.Raw)
		if problem != "" {
			v.d.Errorf(o.Pos, "workflow %q: snippet output %q: %s", c.Name, o.Name, problem)
			continue
		}
		o.Schema = rs
	}
}
