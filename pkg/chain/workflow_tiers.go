package chain

import "strings"

// checkTiers warns of what mcp-flowgate's check refuses in its two tiers
// of workflows and its runtime runs all the same (validate.rs at 443aa7a,
// V7, V8, V10, V11): an orchestrator (flow.*) named flow. alone, one
// that declares a snippet or calls another orchestrator, and a
// capability (cap.*) that calls a workflow. chainrun runs each as
// written, as mcp-flowgate's runtime does.
func (v *validator) checkTiers() {
	c, w := v.c, v.c.Workflow
	stem := c.Name[strings.LastIndex(c.Name, "/")+1:]
	prefix := "workflow " + quote(c.Name) + ": "
	flow := strings.HasPrefix(stem, "flow.")
	if !flow && !namesCapability(c.Name) {
		return
	}
	if stem == "flow." {
		v.d.Warnf(c.Pos, "%san orchestrator is named flow.<name>; mcp-flowgate's check refuses this name (INVALID_ID_SHAPE)", prefix)
	}
	if _, declared := w.FieldPos["snippet"]; declared && flow {
		v.d.Warnf(w.FieldPos["snippet"], "%ssnippet: an orchestrator (flow.*) declares none, as only a capability is called by its contract; mcp-flowgate's check refuses it (ORCHESTRATOR_HAS_SNIPPET), and it is read as written", prefix)
	}
	c.Walk(func(s *Step) {
		switch {
		case s.Kind != KindWorkflow || s.Workflow().DefinitionID == "":
		case !flow:
			v.d.Warnf(s.At("definitionId"), "%s: a capability (cap.*) calls no workflow, here %s: only an orchestrator composes them; mcp-flowgate's check refuses it (CAPABILITY_NESTING), and it runs as written", s.Subject(), s.Workflow().DefinitionID)
		case strings.HasPrefix(s.Workflow().DefinitionID[strings.LastIndex(s.Workflow().DefinitionID, "/")+1:], "flow."):
			v.d.Warnf(s.At("definitionId"), "%s: an orchestrator (flow.*) calls capabilities only, here orchestrator %s; mcp-flowgate's check refuses it (ORCHESTRATOR_NESTING), and it runs as written", s.Subject(), s.Workflow().DefinitionID)
		}
	})
}
